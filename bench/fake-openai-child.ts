/**
 * A fake OpenAI server in its own process, so that in the concurrency benchmark the server's
 * work does not compete with the client's for one event loop. Prints its base URL, then serves
 * until stdin closes. Usage: node --import tsx bench/fake-openai-child.ts <latencyMs>
 */
import { createFakeOpenAIServer } from '@conclave/testing/servers';

const latencyMs = Number(process.argv[2] ?? 100);
const reply = JSON.stringify({ statement: 'fine', scores: { feasibility: 7, revenue: 7, cx: 7, ttm: 7, risk: 7 } });
const server = await createFakeOpenAIServer(() => ({ kind: 'reply', delayMs: latencyMs, content: reply }));
process.stdout.write(`${server.baseURL}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
