/**
 * One time zone, labelled: a browser set to Tokyo looks at a Chicago location (the demo config's
 * America/Chicago). Every time on the screen, the takeout view, the inspector and the SMS outbox
 * is Chicago's, with its short name, and none is Tokyo's.
 */
import type { Locator } from '@playwright/test';
import { card, expect, screenPage, test } from '../helpers/fixtures.ts';
import { create, item as line, order } from './orders.ts';

const LOCATION_ZONE = 'America/Chicago';
const BROWSER_ZONE = 'Asia/Tokyo';

test.use({ timezoneId: BROWSER_ZONE, locale: 'en-US' });

/** Hour and minute of `at` in `timeZone`, as en-US writes them: `{ hm: '06:40', period: 'PM' }`. */
function wallClock(at: number, timeZone: string, hour12: boolean) {
	const parts = new Intl.DateTimeFormat('en-US', {
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hour12,
		timeZone,
		timeZoneName: 'short'
	}).formatToParts(at);
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return {
		hm: `${part('hour')}:${part('minute')}`,
		hms: `${part('hour')}:${part('minute')}:${part('second')}`,
		period: part('dayPeriod'),
		zone: part('timeZoneName')
	};
}

/** The element shows `at` as a 12-hour clock time in `zone`, labelled with the zone's name. */
async function expectClock(locator: Locator, at: number, zone: string) {
	const { hm, period, zone: name } = wallClock(at, zone, true);
	await expect(locator).toContainText(new RegExp(`${hm}\\s${period} ${name}`));
}

test("every time shows in the location's zone, labelled, never the browser's", async ({
	page,
	simulator
}) => {
	// Twenty minutes ahead, on a whole minute: near enough not to be held.
	const pickup = Math.ceil((Date.now() + 20 * 60_000) / 60_000) * 60_000;
	const chicago = wallClock(pickup, LOCATION_ZONE, true);
	const tokyo = wallClock(pickup, BROWSER_ZONE, true);
	expect(chicago.zone).toMatch(/^C[SD]T$/);
	expect(tokyo.hm).not.toBe(chicago.hm);

	await screenPage(page, simulator, 'kds-2');
	expect(
		await simulator.sendTcp(
			'kds-2',
			create(
				order('P-1', 'Pat', [line('1', 'Wrap')], {
					mode: 'Pickup',
					pickupTime: new Date(pickup).toISOString(),
					phoneNumber: '+13125550100',
					optInForSms: true
				})
			)
		)
	).toBe('P-1');

	await test.step('the card: pickup time in Chicago, labelled', async () => {
		const pat = card(page, 'Pat');
		await expectClock(pat, pickup, LOCATION_ZONE);
		await expect(pat).not.toContainText(tokyo.hm);
	});

	await test.step('the header clock and the takeout view', async () => {
		const header = page.getByRole('banner');
		await expect(header).toContainText(new RegExp(`\\d\\d:\\d\\d\\s[AP]M ${chicago.zone}`));
		await page.getByRole('button', { name: 'Takeout' }).click();
		const main = page.getByRole('main', { name: 'Orders' });
		await expectClock(main, pickup, LOCATION_ZONE);
		await expect(main).not.toContainText(tokyo.hm);
	});

	await test.step('the inspector: message times in Chicago, with milliseconds, labelled', async () => {
		const [entry] = (await (
			await fetch(`${simulator.httpUrl}/api/admin/messages?order=P-1`)
		).json()) as Array<{ at: number }>;
		await page.goto(`${simulator.httpUrl}/inspector`);
		await expect(page.getByLabel('Time zone')).toHaveText(`Times in ${LOCATION_ZONE}`);
		const { hms, zone } = wallClock(entry.at, LOCATION_ZONE, false);
		const row = page.getByRole('region', { name: 'Messages' }).getByRole('row').nth(1);
		await expect(row).toContainText(new RegExp(`${hms}\\.\\d{3} ${zone}`));
		await expect(row).not.toContainText(wallClock(entry.at, BROWSER_ZONE, false).hms);
		await row.click();
		const details = page.getByRole('region', { name: 'Message details' });
		await expect(details).toContainText(new RegExp(`\\d{4}-\\d\\d-\\d\\d ${hms}\\.\\d{3} ${zone}`));
	});

	await test.step('the SMS outbox: the text of the order, in Chicago', async () => {
		const [sms] = (await (await fetch(`${simulator.httpUrl}/api/sms?order=P-1`)).json()) as Array<{
			createdAt: string;
		}>;
		const at = Date.parse(sms.createdAt);
		await page.goto(`${simulator.httpUrl}/sms`);
		const outbox = page.getByRole('table', { name: 'SMS outbox' });
		const { hms, zone } = wallClock(at, LOCATION_ZONE, false);
		await expect(outbox).toContainText(new RegExp(`\\d{4}-\\d\\d-\\d\\d ${hms} ${zone}`));
		await expect(outbox).not.toContainText(wallClock(at, BROWSER_ZONE, false).hms);
	});
});
