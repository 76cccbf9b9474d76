/**
 * Fill a data directory with N create-orders over TCP (the demo config's two screens, 25
 * connections each), print the agent's resident memory holding them live, then kill -9 it.
 * With bench/restore-memory.ts: what a restored order costs against a live one (issue 28).
 *
 *   npx tsx bench/fill-orders.ts dist /tmp/kds-filled 100000
 */
import { TcpSession } from '../tests/helpers/tcp.ts';
import { agentFlags, spawnAgent } from '../tests/helpers/process.ts';
import { tcpCreate } from './lib.ts';
const [dist, dir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const agent = await spawnAgent(agentFlags(dir, 'warn'), {}, { dist });
const c = agent.child;
const eps = [...agent.tcp.values()];
let n = 0;
for (const ep of eps) {
	const sessions = await Promise.all(
		Array.from({ length: 25 }, () => TcpSession.open(ep.host, ep.port))
	);
	let left = count / eps.length;
	await Promise.all(
		sessions.map(async (s) => {
			while (left-- > 0) {
				n++;
				await s.request(tcpCreate(`F-${n}`, n));
			}
		})
	);
	await Promise.all(sessions.map((s) => s.close()));
}
await new Promise((r) => setTimeout(r, 1000));
const rss =
	Number(
		/VmRSS:\s+(\d+)/.exec(
			(await import('node:fs')).readFileSync(`/proc/${c.pid}/status`, 'utf8')
		)![1]
	) / 1024;
console.log(`filled ${n} orders; live RSS ${rss.toFixed(1)} MiB`);
c.kill('SIGKILL');
