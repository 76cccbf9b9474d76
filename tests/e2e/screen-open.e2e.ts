/**
 * Opening a screen page (issue 47 part 8): the page's socket is opened as the page starts to load
 * (src/app.html) or, on a navigation inside the app, by the route's load function, and the page
 * takes it over with the snapshot it got (src/lib/ui/early-socket.ts). What a user sees: the
 * cards, live updates on them, and one socket per page (an early socket not taken would be a
 * second browser on the screen until it is dropped).
 */
import type { Page, WebSocket } from '@playwright/test';
import { cardTitles, expect, expectConnection, test } from '../helpers/fixtures.ts';
import { create, item, order } from './orders.ts';

function sockets(page: Page): WebSocket[] {
	const opened: WebSocket[] = [];
	page.on('websocket', (ws) => void opened.push(ws));
	return opened;
}

test('a screen opened by its URL: the cards from the one socket it opened, then live orders on it', async ({
	page,
	simulator
}) => {
	await simulator.sendTcp('kds-1', create(order('1', 'Before open', [item('1', 'Soup')])));
	const opened = sockets(page);
	await page.goto(simulator.screenUrl('kds-1'));
	await expect.poll(() => cardTitles(page)).toEqual(['Before open']);
	await expectConnection(page, 'Connected');
	await simulator.sendTcp('kds-1', create(order('2', 'After open', [item('1', 'Soup')])));
	await expect.poll(() => cardTitles(page)).toEqual(['Before open', 'After open']);
	// The Takeout view and back (a shallow navigation) keep it.
	await page.getByRole('button', { name: 'Takeout' }).click();
	await expect(page).toHaveURL(/\?view=takeout$/);
	await page.getByRole('button', { name: 'Takeout' }).click();
	await expect(page).not.toHaveURL(/view=takeout/);
	await expect.poll(() => cardTitles(page)).toEqual(['Before open', 'After open']);
	expect(opened.map((ws) => new URL(ws.url()).search)).toEqual(['?screen=kds-1']);
	expect(opened[0].isClosed()).toBe(false);
});

test('a screen opened from the screens list (inside the app): one socket, its cards', async ({
	page,
	simulator
}) => {
	await simulator.sendTcp('kds-2', create(order('1', 'Expo ticket', [item('1', 'Soup')])));
	await page.goto(simulator.httpUrl);
	const opened = sockets(page);
	await page.getByRole('link', { name: 'Expo', exact: true }).click();
	await expect(page).toHaveURL(/\/screens\/kds-2$/);
	await expect.poll(() => cardTitles(page)).toEqual(['Expo ticket']);
	await expectConnection(page, 'Connected');
	expect(opened.map((ws) => new URL(ws.url()).search)).toEqual(['?screen=kds-2']);
});

test('an unknown screen: its page says so, and the socket the page opened is gone', async ({
	page,
	simulator
}) => {
	const opened = sockets(page);
	await page.goto(`${simulator.httpUrl}/screens/no-such-screen`);
	await expect(page.getByText('Unknown screen no-such-screen')).toBeVisible();
	await expect.poll(() => opened.every((ws) => ws.isClosed())).toBe(true);
});
