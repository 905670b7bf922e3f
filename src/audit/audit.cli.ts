import { CliArgs, CliCommand } from '../common/cli/cli-command';
import type { Checkpoint } from './audit-chain-walker';
import { AuditEvents } from './audit-events.service';
import { AuditVerifier } from './audit-verifier.service';
import { AuditModule } from './audit.module';

const CHECKPOINT = /^([1-9][0-9]{0,17}):([0-9a-f]{64})$/;

/** `--checkpoint SEQ:HASH`, as an `audit checkpoint` log line or `audit:head` gave it. */
function checkpointOf(args: CliArgs): Checkpoint | undefined {
  const given = args.values.checkpoint;
  if (typeof given !== 'string') return undefined;
  const m = CHECKPOINT.exec(given.trim().toLowerCase());
  if (!m) throw new Error('--checkpoint must be SEQ:HASH (a seq and a 64-digit hex hash)');
  return { seq: BigInt(m[1]), hash: m[2] };
}

export const auditCommands: Record<string, CliCommand> = {
  'audit:verify': {
    summary:
      'Walk the audit chain from its recorded start and check every link (and a logged checkpoint)',
    usage: 'audit:verify [--checkpoint SEQ:HASH]',
    options: {
      checkpoint: {
        type: 'string',
        help: 'SEQ:HASH of a logged `audit checkpoint`: that event must be there, unchanged',
      },
    },
    module: AuditModule,
    prepare: (args) => {
      const checkpoint = checkpointOf(args);
      return Promise.resolve(async (app) => {
        const result = await app.get(AuditVerifier).verify(checkpoint);
        if (result.ok) return { verified: result.count };
        // The runner prints the message and exits 1.
        throw new Error(result.reason);
      });
    },
  },
  'audit:head': {
    summary: 'Print the newest audit event: {"seq","hash","occurred_at"} (null when none)',
    usage: 'audit:head',
    options: {},
    module: AuditModule,
    prepare: () => Promise.resolve((app) => app.get(AuditEvents).head()),
  },
};
