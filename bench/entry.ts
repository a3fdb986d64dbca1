/** Whether a module is the script being run (`tsx bench/x.ts`), not imported by another (a smoke test). */
import { pathToFileURL } from 'node:url';

export function isEntry(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(script).href;
}
