import { subscriptionCommands } from '../subscription/subscription.cli';
import { userCommands } from '../users/user.cli';
import { deviceCommands } from '../device/device.cli';
import { orgCommands } from '../org/org.cli';
import { outgoingWebhookCommands } from '../outgoing-webhook/outgoing-webhook.cli';
import { auditCommands } from '../audit/audit.cli';
import { personalDataCommands } from './personal-data.cli';
import { CliCommand } from '../common/cli/cli-command';
import { dbCommands } from './db.cli';
import { OrgUpdateCliModule } from './org-update-cli.module';

/**
 * Every command, by name. Each feature exports its own from `<feature>.cli.ts`; a command whose
 * change another feature listens to runs here with that feature's module too.
 */
export const COMMANDS: Record<string, CliCommand> = {
  ...orgCommands,
  'org:update': { ...orgCommands['org:update'], module: OrgUpdateCliModule },
  ...userCommands,
  ...deviceCommands,
  ...subscriptionCommands,
  ...outgoingWebhookCommands,
  ...auditCommands,
  ...personalDataCommands,
  ...dbCommands,
};
