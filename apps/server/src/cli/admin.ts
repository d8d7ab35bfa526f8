import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ensureAuthSecret } from '../config/auth-secret.js';
import { loadEnv } from '../config/env.js';
import { openConfiguredDatabase } from '../db/open.js';
import { createMailTransport } from '../mail/transport.js';
import { createMailWorker } from '../mail/worker.js';
import { outboxDirOf } from '../plugins/mail.js';
import { readSchoolSettings } from '../modules/admin/school-settings.js';
import { createAuth } from '../plugins/auth.js';
import { enqueueAdminWelcomeMail } from '../plugins/auth-account.js';
import { addAdmin, removeAdmin } from '../staff/admin-accounts.js';
import { runCli, UsageError } from './run.js';

const USAGE =
  'Usage: npm run admin -- add EMAIL [--name NAME]   make EMAIL an admin (creating the account, with a set-password e-mail)\n' +
  '       npm run admin -- remove EMAIL              make the admin EMAIL a learner again';

type Command = { command: 'add'; email: string; name?: string } | { command: 'remove'; email: string };

function parseArgs(argv: string[]): Command {
  const args = argv.filter((a) => a !== '--');
  let name: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    if (arg === '--name' || arg.startsWith('--name=')) {
      const value = arg === '--name' ? args[(i += 1)] : arg.slice('--name='.length);
      if (value === undefined || name !== undefined) throw new UsageError(USAGE);
      name = value;
    } else if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg}\n${USAGE}`);
    else positional.push(arg);
  }
  const [command, email, ...rest] = positional;
  if (email === undefined || rest.length > 0) throw new UsageError(USAGE);
  if (command === 'add') return { command, email, ...(name === undefined ? {} : { name }) };
  if (command === 'remove' && name === undefined) return { command, email };
  throw new UsageError(USAGE);
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** better-auth's log, silent: the command says what happened itself. */
const noop = () => {};
const quietLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child: () => quietLog,
};

runCli(async () => {
  const args = parseArgs(process.argv.slice(2));
  const env = ensureAuthSecret(loadEnv());
  const { db, close } = await openConfiguredDatabase(env, `npm run admin -- ${args.command}`);
  try {
    if (args.command === 'remove') {
      const result = await removeAdmin(db, args.email);
      if (result.outcome === 'not-admin') say(`${args.email} is not an admin (role: ${result.role}); nothing changed.`);
      else {
        say(`${args.email} is no longer an admin (role: learner).`);
        if (result.adminsLeft === 0) say('No admin is left: `npm run admin -- add EMAIL` makes one.');
      }
      return;
    }
    // the reset flow's link, in a welcome e-mail; only what this needs of the server's options
    const auth = createAuth(
      db,
      {
        secret: env.authSecret,
        publicOrigin: env.publicOrigin,
        trustedOrigins: env.trustedOrigins,
        attemptsPer10s: env.authAttemptsPer10s,
        accountDeletion: {
          outboxDir: outboxDirOf(env),
          // (the command deletes no account; the console's settings over the environment's, as the server's)
          school: () => readSchoolSettings(db.orm, { schedule: { timeZone: env.schoolTimeZone, hours: env.schoolHours }, email: env.schoolEmail }),
          now: Date.now,
        },
        resetPasswordMail: enqueueAdminWelcomeMail,
      },
      quietLog,
    );
    const result = await addAdmin(db, auth, args);
    say(
      result.outcome === 'created'
        ? `Created the admin account ${args.email}.`
        : result.outcome === 'promoted'
          ? `${args.email} is now an admin (was: ${result.previousRole}).`
          : `${args.email} is already an admin${result.linkQueued ? ', without a password yet' : '; nothing changed'}.`,
    );
    if (!result.linkQueued) return;
    // sent now, as the server's worker would (through SMTP_URL, or as an .eml file)
    const transport = createMailTransport({
      from: env.mailFrom,
      smtpUrl: env.smtpUrl,
      outboxDir: outboxDirOf(env),
      outboxDisplay: path.join(env.dataDirDisplay, 'outbox'),
    });
    const where: string[] = [];
    const log = { info: (_obj: object, msg: string) => where.push(msg), warn: () => {}, error: () => {} };
    try {
      await createMailWorker({ db, transport, log }).runOnce();
    } finally {
      transport.close();
    }
    const written = where.find((msg) => msg.startsWith('mail written to '));
    say(
      `A link to set the password (valid 1 hour) was e-mailed to ${args.email}` +
        (written ? ` (no SMTP_URL: ${written.slice('mail '.length)}).` : where.includes('mail sent') ? '.' : '; it is sent when the server runs.'),
    );
  } finally {
    await close();
  }
});
