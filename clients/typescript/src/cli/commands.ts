import type { Command } from './command.js';
import { adminCommand } from './commands/admin.js';
import { rechargeCommand, spendCommand } from './commands/credits.js';
import { kvCommand } from './commands/kv.js';
import { logsCommand } from './commands/logs.js';
import { dnsCommand, ipCommand, metaCommand } from './commands/lookups.js';
import { balanceCommand, tokenCommand } from './commands/token.js';
import { webhookCommand } from './commands/webhook.js';
import { mcpCommand } from '../mcp-stdio.js';

/** Every top-level word of `coinop`, in the order `coinop help` lists them. A new command is one import and one line. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  token: tokenCommand,
  balance: balanceCommand,
  spend: spendCommand,
  recharge: rechargeCommand,
  kv: kvCommand,
  webhook: webhookCommand,
  dns: dnsCommand,
  meta: metaCommand,
  ip: ipCommand,
  logs: logsCommand,
  admin: adminCommand,
  mcp: mcpCommand,
};
