// Operator CLI: partners and API keys. `npm run admin -- --help`
import { runAdmin } from './cli/admin.cli';

const argv = process.argv.slice(2);

runAdmin(argv, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  // runAdmin answers every error itself; this is the last resort, in the same shape.
  (err) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code: 'INTERNAL', message } })}\n`);
    process.exitCode = 1;
  },
);
