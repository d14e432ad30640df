import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The built widget's files as the gateway serves them, gzipped at level 9, against the budgets. */
export function printWidgetSizes(distDir: string): void {
  const dir = path.join(distDir, 'apps', 'widget');
  const { widget } = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { widget: string };
  const rows = [
    { name: 'loader.js', file: 'loader.js', budget: 2 * 1024 },
    { name: `whole widget (${widget})`, file: widget, budget: 25 * 1024 },
  ];
  console.log('\n| widget (gzip -9) | bytes | budget |\n|---|---|---|');
  for (const r of rows) {
    const bytes = gzipSync(readFileSync(path.join(dir, r.file)), { level: 9 }).length;
    console.log(
      `| ${r.name} | ${bytes.toLocaleString('en')} | ${r.budget.toLocaleString('en')} ${bytes <= r.budget ? 'PASS' : 'FAIL'} |`,
    );
  }
}
