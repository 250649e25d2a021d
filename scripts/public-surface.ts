/**
 * The package's public surface: for every entry point of package.json `exports`, the names it
 * exports, each marked `value` or `type`, read by the TypeScript compiler from the entry's source.
 * spec/package/public-surface.spec.ts compares it with the committed snapshot
 * (spec/package/public-surface.txt), so a change to what users can import is made on purpose:
 * `npm run surface` rewrites the snapshot, and the diff shows the change.
 *
 * Usage: `tsx scripts/public-surface.ts` prints it, `--write` writes the snapshot.
 */
import ts from 'typescript';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SNAPSHOT = join(ROOT, 'spec/package/public-surface.txt');

/** Each entry point (`.`, `./client`, ...) and its source file, from package.json `exports`. */
export function entryPoints(): { name: string; source: string }[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string }> };
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([name, target]) => ({ name, source: (target as { types: string }).types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts') }));
}

/** An entry's exports, `value Name` or `type Name`, sorted; and its `export *` statements, which should be none. */
export interface EntrySurface {
  readonly name: string;
  readonly source: string;
  readonly exports: readonly string[];
  readonly starExports: readonly string[];
}

export function publicSurface(): EntrySurface[] {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram({ rootNames: entries.map((e) => join(ROOT, e.source)), options: config.options });
  const checker = program.getTypeChecker();
  return entries.map(({ name, source }) => {
    const file = program.getSourceFile(join(ROOT, source));
    if (file === undefined) throw new Error(`${name}: no source file ${source}`);
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      // A name re-exported with `type` is a type to its importer even when it names a class.
      const typeOnly = (symbol.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
      return `${target.flags & ts.SymbolFlags.Value && !typeOnly ? 'value' : 'type'} ${symbol.name}`;
    });
    const starExports = file.statements
      .filter((s) => ts.isExportDeclaration(s) && s.exportClause === undefined)
      .map((s) => s.getText(file));
    return { name, source: relative(ROOT, join(ROOT, source)), exports: exports.sort((a, b) => a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' ')))), starExports };
  });
}

/** The snapshot's text: one section per entry point. */
export function renderSurface(surface: readonly EntrySurface[]): string {
  return surface.map((e) => `## ${e.name} (${e.source}): ${e.exports.length} names\n${e.exports.join('\n')}\n`).join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderSurface(publicSurface());
  if (process.argv.includes('--write')) writeFileSync(SNAPSHOT, text);
  else process.stdout.write(text);
}
