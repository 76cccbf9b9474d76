/**
 * Who may read customer data and run the simulator: one guard for the admin API and for every
 * route that returns what customers sent or were sent (orders with names and phone numbers, texts,
 * payloads), the screen actions, and the WebSocket relay the screens read.
 *
 * A request passes when it comes from loopback (unless `trustLoopback` is off), when it carries the
 * admin token in `x-admin-token`, or when it carries the access cookie a browser gets by signing in
 * at `/access` with the admin token. A wrong `x-admin-token` is refused even from loopback (the
 * caller is misconfigured). An integration token is never enough: it is the POS's, not the
 * kitchen's.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { validationError } from './integrators/errors.ts';
import { declared } from './responses.ts';

export interface AccessOptions {
	/** The admin token, for callers that are not on loopback; none: loopback only. */
	adminToken?: string;
	/** Trust requests from 127.0.0.0/8 and ::1 without a token (default true). */
	trustLoopback?: boolean;
}

export const ACCESS_COOKIE = 'kds-access';

/**
 * Routes behind the guard (Fastify route paths): the admin API, the texts, and each screen's
 * state, notifications, actions, pop-ups and orders (ready for pickup). A screen's name and the list of locations stay open:
 * they carry no customer data, and let a browser without access say what it needs.
 */
const GUARDED =
	/^\/api\/(admin(\/|$)|sms\/?$|tracker\/|screens\/:[^/]+\/(state|notifications|actions|popups|orders))/;

export function isGuardedRoute(url: string): boolean {
	return GUARDED.test(url);
}

export function isLoopback(address: string | undefined): boolean {
	if (!address) return false;
	const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
	if (isIP(v4) === 4) return v4.startsWith('127.');
	return address === '::1';
}

type Refusal = 'no-token' | 'wrong-token' | 'no-admin-token-set';

const REFUSALS: Record<Refusal, string> = {
	'no-token':
		'This route shows customer data or runs the simulator: call it from the simulator host (loopback), send x-admin-token, or sign this browser in at /access with the admin token. An integration token is not enough.',
	'wrong-token': 'x-admin-token: not the admin token',
	'no-admin-token-set':
		'x-admin-token: this simulator has no admin token (start it with --admin-token or KDS_ADMIN_TOKEN); from the simulator host, leave the header out'
};

const digest = (text: string) => createHash('sha256').update(text).digest();

function cookieValue(headers: IncomingHttpHeaders): string | undefined {
	const header = headers.cookie;
	if (!header) return undefined;
	for (const part of header.split(';')) {
		const eq = part.indexOf('=');
		if (eq > 0 && part.slice(0, eq).trim() === ACCESS_COOKIE) return part.slice(eq + 1).trim();
	}
	return undefined;
}

export class Access {
	private readonly trustLoopback: boolean;
	private readonly expected: Buffer | null;
	/** The cookie's value: derived from the token, so the cookie does not carry the token itself. */
	private readonly cookie: Buffer | null;

	constructor(options: AccessOptions = {}) {
		this.trustLoopback = options.trustLoopback ?? true;
		this.expected = options.adminToken ? digest(options.adminToken) : null;
		this.cookie = options.adminToken
			? digest(
					createHmac('sha256', options.adminToken).update('kds-sim access').digest('base64url')
				)
			: null;
	}

	/** Why a request with these headers from this address is refused; null when it may pass. */
	refusal(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string | null {
		const header = headers['x-admin-token'];
		const token = Array.isArray(header) ? header[0] : header;
		if (token !== undefined) {
			if (!this.expected) return REFUSALS['no-admin-token-set'];
			return timingSafeEqual(digest(token), this.expected) ? null : REFUSALS['wrong-token'];
		}
		const cookie = cookieValue(headers);
		if (cookie !== undefined && this.cookie && timingSafeEqual(digest(cookie), this.cookie))
			return null;
		if (this.trustLoopback && isLoopback(remoteAddress)) return null;
		return REFUSALS['no-token'];
	}

	/** The Set-Cookie header for a browser that gave the right token; null when it did not. */
	signIn(token: string): string | null {
		if (!this.expected || !timingSafeEqual(digest(token), this.expected)) return null;
		const value = createHmac('sha256', token).update('kds-sim access').digest('base64url');
		return `${ACCESS_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000`;
	}

	/** As an onRequest hook: 403 ADMIN_ONLY when refused. */
	readonly hook = async (req: FastifyRequest, reply: FastifyReply) => {
		const why = this.refusal(req.headers, req.socket.remoteAddress);
		if (why !== null) return reply.code(403).send({ code: 'ADMIN_ONLY', message: why });
	};
}

const SIGN_IN_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in: KDS simulator</title>
<style>body{font:20px system-ui,sans-serif;background:#111;color:#eee;margin:0;display:grid;place-items:center;min-height:100vh}
form{display:grid;gap:12px;max-width:28em;padding:24px}input,button{font:inherit;padding:10px}
button{background:#0369a1;color:#fff;border:0;border-radius:6px}p[role=alert]{color:#fca5a5}</style></head>
<body><form id="f"><h1>KDS simulator</h1>
<p>The screens show customer data. From another computer, enter the simulator's admin token
(<code>--admin-token</code>) once; this browser then keeps access.</p>
<label>Admin token <input id="t" type="password" autocomplete="current-password" required></label>
<button>Sign in</button><p id="e" role="alert"></p></form>
<script>
document.getElementById('f').addEventListener('submit', async (ev) => {
	ev.preventDefault();
	const res = await fetch('/api/access', { method: 'POST', headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ token: document.getElementById('t').value }) });
	if (res.ok) { location.href = new URLSearchParams(location.search).get('next')?.startsWith('/') ? new URLSearchParams(location.search).get('next') : '/'; return; }
	document.getElementById('e').textContent = (await res.json()).message;
});
</script></body></html>
`;

/**
 * Put the guard in front of every guarded route registered after this call, and serve the
 * sign-in: GET /access (a form), POST /api/access `{token}` (sets the cookie), GET /api/access
 * (`{granted}`: whether this browser passes the guard).
 */
export function registerAccess(app: FastifyInstance, access: Access): void {
	app.addHook('onRoute', (route: RouteOptions) => {
		if (!isGuardedRoute(route.url)) return;
		const existing = route.onRequest;
		route.onRequest = [access.hook, ...(existing ? [existing].flat() : [])];
	});

	app.get('/access', async (_req, reply) =>
		reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(SIGN_IN_PAGE)
	);

	app.get('/api/access', declared('GET /api/access'), async (req) => ({
		granted: access.refusal(req.headers, req.socket.remoteAddress) === null
	}));

	app.post<{ Body: { token?: unknown } | undefined }>(
		'/api/access',
		declared('POST /api/access'),
		async (req, reply) => {
			const token = req.body?.token;
			if (typeof token !== 'string') {
				const message = 'expected the admin token as a string';
				throw validationError([{ path: 'token', message }], `token: ${message}`);
			}
			const cookie = access.signIn(token);
			if (cookie === null) {
				return reply.code(403).send({
					code: 'ADMIN_ONLY',
					message: access.refusal({ 'x-admin-token': token }, undefined) ?? 'token: refused'
				});
			}
			return reply.header('set-cookie', cookie).code(204).send();
		}
	);
}
