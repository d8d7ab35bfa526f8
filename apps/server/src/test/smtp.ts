import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  port: number;
  url: string;
  /** raw messages, in arrival order */
  received: string[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** default: a free port */
  port?: number;
  /** an SMTP reply code to refuse a message with (e.g. 451, 550); undefined accepts it */
  answer?: (raw: string) => number | undefined;
  /** how long the server takes to answer each message */
  delayMs?: number;
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth). */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const code = options.answer?.(raw);
        setTimeout(() => {
          if (code !== undefined) return callback(Object.assign(new Error('refused by the test'), { responseCode: code }));
          received.push(raw);
          callback();
        }, options.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded body of the MIME part whose headers contain `marker` (a one-part message: its body). */
export function mimePart(raw: string, marker: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary && marker === 'text/plain' && /^Content-Type: text\/plain/im.test(raw)) return decodePart(raw);
  if (!boundary) throw new Error('not a multipart message');
  const part = raw.split(`--${boundary}`).find((p) => p.includes(marker));
  if (!part) throw new Error(`no part with ${marker}`);
  return decodePart(part);
}

function decodePart(part: string): string {
  const [head = '', ...bodyLines] = part.split(/\r?\n\r?\n/);
  const body = bodyLines.join('\n\n').trim();
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    // soft line breaks out, then =XX bytes back, read as UTF-8
    const text = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < text.length; i += 1) {
      const hex = text[i] === '=' ? /^[0-9A-F]{2}$/.exec(text.slice(i + 1, i + 3)) : null;
      if (hex) {
        bytes.push(parseInt(hex[0], 16));
        i += 2;
      } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}
