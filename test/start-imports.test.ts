/**
 * What a start loads before it listens (docs/ARCHITECTURE.md, "Cold start"): the modules `src/main.ts` reaches
 * through static imports, as Node loads them (with verbatimModuleSyntax only `import type` is erased; a
 * dynamic `import()` loads when it runs, after listening). zod, the repositories, the API client, the services
 * and the features load only after Vigil listens; `npm run bench:cold` measures what that is worth.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The specifiers a module imports or re-exports at run time. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2023, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** Every module `entry` loads statically: Vigil's own (relative to the repository) and the packages. */
function staticGraph(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const name = relative(ROOT, file);
    if (modules.has(name)) return;
    modules.add(name);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:')) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
      }
    }
  };
  visit(entry);
  return { modules, packages };
}

it('loads before listening only Bolt, undici and the modules /healthz needs', () => {
  const { modules, packages } = staticGraph(join(ROOT, 'src/main.ts'));
  expect([...packages].sort()).toEqual(['@slack/bolt', 'undici']);
  for (const later of [
    'src/store/index.ts',
    'src/api/index.ts',
    'src/api/client.ts',
    'src/app/services.ts',
    'src/app/features.ts',
    'packages/playground/src/playground/start.ts',
  ]) {
    expect(modules.has(later), later).toBe(false);
  }
  expect(modules.has('src/app/config.ts')).toBe(true);
  expect(modules.has('src/store/opening.ts')).toBe(true);
});
