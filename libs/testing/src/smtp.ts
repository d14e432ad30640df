import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSmtpCatcher, type CaughtMail } from '@platform/launcher';
import { waitFor } from './wait';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received (headers and encoded body). */
  raw: string;
  subject: string;
  /** raw with quoted-printable soft breaks and escapes undone, for content assertions. */
  decoded: string;
}

/** What a test reads of the e-mails a platform sent. */
export interface Mailbox {
  waitForMessage(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
}

export interface TestSmtpServer extends Mailbox {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=) in a header value. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(decodeQuotedPrintable(text.replace(/_/g, ' ')), 'latin1').toString('utf8'),
  );
}

function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = /^subject:[ \t]*(.*)$/im.exec(head);
  return line ? decodeHeader(line[1]).trim() : '';
}

const received = ({ from, to, raw }: CaughtMail): ReceivedMail => ({
  from,
  to,
  raw,
  subject: subjectOf(raw),
  decoded: decodeQuotedPrintable(raw),
});

/**
 * A real SMTP server on an ephemeral port (the launcher's catcher) that keeps what it receives in
 * memory and, given a folder, also writes each message there for other processes (mailboxIn).
 */
export async function startSmtpServer(options: { folder?: string } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const { folder } = options;
  if (folder) await mkdir(folder, { recursive: true });
  const catcher = await startSmtpCatcher({
    onMessage: async (mail) => {
      messages.push(received(mail));
      if (!folder) return;
      // Written aside and renamed: a reader never sees half a message.
      const name = `${String(messages.length).padStart(6, '0')}.json`;
      await writeFile(path.join(folder, `.${name}.partial`), JSON.stringify(mail));
      await rename(path.join(folder, `.${name}.partial`), path.join(folder, name));
    },
  });
  return {
    url: catcher.url,
    messages,
    waitForMessage: (predicate, timeoutMs = 10_000) =>
      waitFor(() => messages.find(predicate), { timeoutMs, what: 'an e-mail' }),
    close: () => catcher.close(),
  };
}

/** The messages a startSmtpServer({ folder }) in another process has received, read from its folder. */
export function mailboxIn(folder: string): Mailbox {
  const read = new Map<string, ReceivedMail>();
  const messages = async () => {
    for (const name of (await readdir(folder)).filter((n) => n.endsWith('.json') && !read.has(n))) {
      read.set(name, received(JSON.parse(await readFile(path.join(folder, name), 'utf8')) as CaughtMail));
    }
    return [...read.values()];
  };
  return {
    waitForMessage: (predicate, timeoutMs = 10_000) =>
      waitFor(async () => (await messages()).find(predicate), { timeoutMs, what: 'an e-mail' }),
  };
}
