/** Every subcommand, in the order `mcp-actors --help` lists them. */
import type { Command } from '../context.js';
import { callCommand } from './call.js';
import { completeCommand } from './complete.js';
import { getCommand } from './get.js';
import { inspectCommand } from './inspect.js';
import { listCommand } from './list.js';
import { machinesCommand } from './machines.js';
import { readCommand } from './read.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';

export const commands: readonly Command[] = [listCommand, callCommand, readCommand, getCommand, completeCommand, recordCommand, replayCommand, inspectCommand, machinesCommand];
