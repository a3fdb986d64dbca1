// Part of `npm run build`: files the compiled code reads at run time besides its own JavaScript.
import { cpSync } from 'node:fs';

cpSync('src/playground/assets', 'dist/src/playground/assets', { recursive: true });
