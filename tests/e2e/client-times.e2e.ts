/**
 * Date-times as POS clients send them by default (Python `datetime.now().isoformat()`, Java
 * `LocalDateTime`): no offset, so the local time of the screen's location (America/Chicago in
 * the default config). The browser runs in another zone (Tokyo) on purpose: a card that read
 * the time as given would show the pickup hours off.
 */
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { wallTime } from '../helpers/wall-time.ts';

test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });

const CHICAGO = 'America/Chicago';

/** The wall time in Chicago at `ms`, as `YYYY-MM-DDTHH:MM:SS` (what a naive isoformat prints). */
const chicagoWall = (ms: number) => wallTime(ms, CHICAGO);

/** The clock the card shows for `ms` in Chicago, as the screen formats it. */
function chicagoClock(ms: number): string {
	return new Date(ms).toLocaleTimeString('en-US', {
		hour: '2-digit',
		minute: '2-digit',
		timeZone: CHICAGO
	});
}

test('local times with no offset: the card shows the right elapsed time and pickup clock', async ({
	page,
	simulator
}) => {
	await screenPage(page, simulator, 'kds-1');
	const now = Date.now();
	const pickupAt = now + 40 * 60_000;
	await test.step('a Python POS sends isoformat() times over TCP', async () => {
		const order = {
			id: 'PY-1',
			name: 'Python POS',
			time: `${chicagoWall(now)}.729233`,
			pickupTime: `${chicagoWall(pickupAt)}.000001`,
			mode: 'Pickup',
			items: [{ lineId: '1', name: 'Iced Tea', qty: 1, mods: [] }]
		};
		expect(await simulator.sendTcp('kds-1', { command: 'create-order', order })).toBe('PY-1');
	});
	await test.step('a Java POS sends LocalDateTime.toString() times over HTTP', async () => {
		const { status } = await simulator.sendHttp(
			'create',
			{
				id: 'JAVA-1',
				name: 'Java POS',
				time: chicagoWall(now).slice(0, 16),
				pickupTime: `${chicagoWall(pickupAt)}.123456789`,
				mode: 'Pickup',
				items: [{ lineId: '1', name: 'Coffee', qty: 1, mods: [] }]
			},
			{ devices: 'kds-1' }
		);
		expect(status).toBe(201);
	});
	for (const name of ['Python POS', 'Java POS']) {
		const ticket = card(page, name);
		await expect(ticket).toBeVisible();
		// Pickup in 40 min, so the ticket is scheduled to start 8 min (the late threshold) before
		// it: about 32 min from now, not the hours between Chicago and UTC or Tokyo.
		await expect(ticket.getByRole('timer')).toHaveText(/^in 3[1-3] min$/);
		await expect(ticket).toContainText(`Pickup ${chicagoClock(pickupAt)}`);
	}
	await test.step('the inspector names how each time was read', async () => {
		await page.goto(`${simulator.httpUrl}/inspector`);
		await expect(page.getByRole('status', { name: 'Message log: Live' })).toBeVisible();
		const messages = page.getByRole('region', { name: 'Messages' }).getByRole('row');
		await messages.filter({ hasText: 'PY-1' }).click();
		const details = page.getByRole('region', { name: 'Message details' });
		const local = details.getByRole('listitem', {
			name: 'Warning KDS-TIME-NO-OFFSET at order.time'
		});
		await expect(local).toContainText('(America/Chicago), the local time of the screen');
		await expect(local).toContainText("read as the local time of the screen's location");
		await expect(
			details.getByRole('listitem', { name: 'Info KDS-TIME-FRACTION at order.pickupTime' })
		).toContainText('6 fractional digits');
	});
});
