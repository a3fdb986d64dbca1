/**
 * `npx tsx bench/deps-width.ts`: how wide the dependency interface each feature's handlers receive is: for
 * every exported `Feature<D>` in src/features/, the members of `D` counted by the TypeScript compiler
 * (inherited members included, so `SlackBase`'s four count). Widest first. A measure of coupling, not speed;
 * issue 37 asks that the widest be at most 8.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { isEntry } from './entry.js';

export interface FeatureWidth {
  feature: string;
  file: string;
  deps: string;
  members: string[];
}

const root = fileURLToPath(new URL('../', import.meta.url));

export function measureDepsWidth(): FeatureWidth[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const widths: FeatureWidth[] = [];
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(`${root}src/features/`)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const declaration = exported.valueDeclaration;
      if (!declaration || declaration.getSourceFile() !== source) continue;
      const type = checker.getTypeOfSymbolAtLocation(exported, declaration);
      const deps = featureDeps(type, checker);
      if (!deps) continue;
      widths.push({
        feature: exported.name,
        file: source.fileName.slice(root.length),
        deps: checker.typeToString(deps),
        members: checker.getPropertiesOfType(deps).map((p) => p.name),
      });
    }
  }
  return widths.sort((a, b) => b.members.length - a.members.length);
}

/** `D` of a `Feature<D>` (an alias reference to the `Feature` interface), or undefined for anything else. */
function featureDeps(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  if (type.getSymbol()?.name !== 'Feature') return undefined;
  const [deps] = checker.getTypeArguments(type as ts.TypeReference);
  return deps;
}

if (isEntry(import.meta.url)) {
  const widths = measureDepsWidth();
  process.stdout.write('| feature | deps | members |\n| --- | --- | --- |\n');
  for (const w of widths)
    process.stdout.write(`| ${w.feature} | ${w.deps} | ${w.members.length}: ${w.members.join(', ')} |\n`);
  process.stdout.write(`\nwidest: ${widths[0]?.members.length ?? 0} members (goal ≤ 8)\n`);
}
