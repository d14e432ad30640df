// Refuses to start or test on a Node older than .nvmrc's major, with what to do instead.
// Plain JavaScript so it runs (and explains) on any Node.
import { readFileSync } from 'node:fs';

const wanted = Number(readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim());
const running = Number(process.versions.node.split('.')[0]);
if (running !== wanted) {
  console.error(
    `This project runs on Node ${wanted}; this is Node ${process.versions.node}.\n` +
      `Get Node ${wanted} with one command:  eval "$(bash tools/node24.sh)"  (or: nvm install && nvm use)\n` +
      'then run npm ci again (dependencies built on another Node may not load).',
  );
  process.exit(1);
}
