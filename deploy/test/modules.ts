import { existsSync } from 'node:fs';
import path from 'node:path';

/** The node_modules folder holding a package: the repository's, else one on NODE_PATH (as Node looks). */
export function nodeModulesWith(pkg: string): string | undefined {
  const candidates = [path.resolve(__dirname, '../../node_modules'), ...(process.env.NODE_PATH ?? '').split(':')];
  return candidates.find((dir) => dir && existsSync(path.join(dir, pkg, 'package.json')));
}
