import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  /** The message as received (headers and encoded body). */
  raw: string;
}

export interface SmtpCatcher {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (no auth, no TLS) that hands every message it receives to
 * onMessage: `npm start` keeps them as files, tests keep them in memory.
 */
export async function startSmtpCatcher(options: {
  port?: number;
  onMessage(mail: CaughtMail): void | Promise<void>;
}): Promise<SmtpCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        Promise.resolve(options.onMessage(mail)).then(
          () => callback(),
          (err: unknown) => callback(err as Error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The local mail catcher of `npm start`: every e-mail the platform sends becomes a .eml file in folder. */
export async function startMailFolder(port: number, folder: string): Promise<SmtpCatcher> {
  await mkdir(folder, { recursive: true });
  let n = 0;
  return startSmtpCatcher({
    port,
    onMessage: async (mail) => {
      n += 1;
      const to = (mail.to[0] ?? 'unknown').replace(/[^\w.@-]/g, '_');
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(n).padStart(4, '0')}-${to}.eml`;
      // Written aside and renamed: whoever watches the folder never reads a half-written e-mail.
      const partial = path.join(folder, `.${name}.partial`);
      await writeFile(partial, mail.raw);
      await rename(partial, path.join(folder, name));
    },
  });
}
