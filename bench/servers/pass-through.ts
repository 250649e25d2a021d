/**
 * Bench helper: a bare byte pass-through between our stdio and a child server (what any stdio
 * proxy costs before it records anything). `node pass-through.js <command> [args...]`
 */
import { spawn } from 'node:child_process';

const child = spawn(process.argv[2]!, process.argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('close', (code) => process.exit(code ?? 0));
