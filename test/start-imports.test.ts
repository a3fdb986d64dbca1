/**
 * What a start loads before it listens (docs/ARCHITECTURE.md, "Cold start"): the modules `src/main.ts` reaches
 * through static imports, as Node loads them (with verbatimModuleSyntax only `import type` is erased; a
 * dynamic `import()` loads when it runs, after listening). zod, the repositories, the API client, the services
 * and the features load only after Vigil listens; `npm run bench:cold` measures what that is worth. And the
 * rules between the product and the playground package: the product never imports it; the simulators take
 * nothing of the product but the kernel's clock and logger.
 */
import { readdirSync, readFileSync } from 'node:fs';
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
  ]) {
    expect(modules.has(later), later).toBe(false);
  }
  expect(modules.has('src/app/config.ts')).toBe(true);
  expect(modules.has('src/store/opening.ts')).toBe(true);
});

/** Every module a file names (static, type-only, re-exported or dynamic), resolved from the repository. */
function everyImport(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(ROOT, join(dirname(file), s)));
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, dir, f));
}

it('the product imports nothing of the playground package (scripts/start.js chooses between them)', () => {
  const offending = sourcesUnder('src').flatMap((file) =>
    everyImport(file)
      .filter((target) => !target.startsWith('src/'))
      .map((target) => `${relative(ROOT, file)} -> ${target}`),
  );
  expect(offending).toEqual([]);
});

it("the simulators take only the kernel's clock and logger from the product, none of its schemas", () => {
  const offending = sourcesUnder('packages/playground/src/sim').flatMap((file) =>
    everyImport(file)
      .filter((target) => target.startsWith('src/') && !target.startsWith('src/kernel/'))
      .map((target) => `${relative(ROOT, file)} -> ${target}`),
  );
  expect(offending).toEqual([]);
});
