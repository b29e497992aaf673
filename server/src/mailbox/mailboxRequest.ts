import { z } from 'zod';

import { FORWARDED_ENV_NAMES } from './mailboxProtocol';

/** A request in the memory server's mailbox: one `engram` command line, as the caller would run it. */
export const mailboxRequestSchema = z.strictObject({
  argv: z.array(z.string().max(1_000_000)).min(1).max(64),
  cwd: z.string().min(1),
  env: z.partialRecord(z.enum(FORWARDED_ENV_NAMES), z.string()),
  /** A hook's stdin, read whole by the caller. */
  stdin: z.string().optional(),
});
