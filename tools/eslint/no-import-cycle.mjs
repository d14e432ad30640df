// ESLint rule: no import cycles among the source files of apps/*/src and libs/*/src, type-only
// imports included (import-x/no-cycle skips those, and most of our circles are made of them:
// a context type importing a worker that imports the context). Specifiers resolve the way tsc
// resolves them, @platform/* through tsconfig.base.json's paths.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\/(?:apps|libs)\/[^/]+\/src\/.*\.ts$/;

/** A rule for the repository whose tsconfig (with the paths) is tsconfigPath. */
export function noImportCycle(tsconfigPath) {
  const root = path.dirname(tsconfigPath);
  const { config } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config, ts.sys, root).options;
  const imports = new Map();

  /** The source files a file imports (any kind of import or re-export), resolved; cached for the run. */
  const importsOf = (file) => {
    let found = imports.get(file);
    if (found) return found;
    const specifiers = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((i) => i.fileName);
    found = [...new Set(specifiers.map((s) => resolve(s, file)).filter(Boolean))];
    imports.set(file, found);
    return found;
  };
  const resolve = (specifier, from) => {
    const resolved = ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule;
    const file = resolved && !resolved.isExternalLibraryImport ? path.resolve(resolved.resolvedFileName) : undefined;
    return file && SOURCE.test(file) && !file.endsWith('.d.ts') ? file : undefined;
  };
  /** The shortest chain of imports from `start` back to `file`, or undefined when there is none. */
  const chainBack = (start, file) => {
    const cameFrom = new Map([[start, undefined]]);
    for (const queue = [start]; queue.length > 0;) {
      const current = queue.shift();
      for (const next of importsOf(current)) {
        if (cameFrom.has(next)) continue;
        cameFrom.set(next, current);
        if (next === file) {
          const chain = [];
          for (let at = next; at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
          return chain;
        }
        queue.push(next);
      }
    }
    return undefined;
  };

  return {
    meta: {
      type: 'problem',
      docs: { description: 'Forbid imports (type-only ones too) that lead back to the importing file.' },
      schema: [],
      messages: { cycle: 'Import cycle: {{chain}}. Move what both sides need into a file that imports neither.' },
    },
    create(context) {
      const file = path.resolve(context.physicalFilename);
      if (!SOURCE.test(file)) return {};
      const check = (node) => {
        if (!node.source) return;
        const target = resolve(node.source.value, file);
        const chain = target && target !== file ? chainBack(target, file) : undefined;
        if (chain) {
          const names = [file, ...chain].map((f) => path.relative(root, f));
          context.report({ node, messageId: 'cycle', data: { chain: names.join(' -> ') } });
        }
      };
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
    },
  };
}
