/** The agent's message log as the browser asks for it: the admin API's URLs and the re-send. */
import type { MessageEntry } from '#core/message-entry';

/** One logged message, as GET /api/admin/messages and the stream send it. */
export type InspectorEntry = MessageEntry;

export const MESSAGES_URL = '/api/admin/messages';
export const STREAM_URL = '/api/admin/messages/stream';

/** Shown instead of the log when the admin API answers 403. */
export const FORBIDDEN_TEXT =
	'The inspector is available from the simulator host, or with an admin token';

/**
 * Send a logged message again, as it came, or `edited` (the payload from the inspector's
 * editor) in its place; resolves with the reply, or why it could not.
 */
export async function resendMessage(
	id: number,
	fetchImpl: typeof fetch = (input, init) => fetch(input, init),
	edited?: string
): Promise<{ ok: boolean; result: string }> {
	try {
		const res = await fetchImpl(
			`${MESSAGES_URL}/${id}/resend`,
			edited === undefined
				? { method: 'POST' }
				: {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ payload: edited })
					}
		);
		const body = (await res.json().catch(() => ({}))) as { result?: string; message?: string };
		if (res.status === 403) return { ok: false, result: FORBIDDEN_TEXT };
		if (!res.ok) return { ok: false, result: body.message ?? `The agent answered ${res.status}` };
		return { ok: true, result: body.result ?? '' };
	} catch {
		return { ok: false, result: 'The agent is not reachable' };
	}
}
