// The orders a POS sends for a step of a certification run (docs/certify.md): built from the
// step's machine-readable `needs`, as a POS's own test harness would map them onto its menu.
// Shared by the two sample POS clients (certify_careful.mjs, certify_naive.mjs); each decides
// for itself how it sends, waits and retries, and which needs it honours.

/** The step the simulator handed over (kds-sim certify --exec sets CERTIFY_STEP). */
export function currentStep() {
	const step = JSON.parse(process.env.CERTIFY_STEP ?? 'null');
	if (!step) throw new Error('CERTIFY_STEP is not set: run me through kds-sim certify --exec');
	return { ...step, url: process.env.CERTIFY_URL ?? 'http://127.0.0.1:8104' };
}

/** The brand's integration token for the step's location (from the admin API, as a harness reads it). */
export async function tokenFor(url, location) {
	const info = await (await fetch(`${url}/api/admin/integration`)).json();
	const brand =
		info.brands.find((b) => b.locations.some((l) => l.id === location)) ?? info.brands[0];
	return brand.token;
}

const ITEMS = [
	{
		lineId: '1',
		name: 'Cheeseburger 🍔',
		qty: 1,
		mods: [{ name: 'No onions' }, { name: 'Extra cheese', qty: 2 }]
	},
	{ lineId: '2', name: '唐揚げ Karaage', qty: 2, mods: [{ name: 'Spicy mayo' }] },
	{ lineId: '3', name: 'Fries', qty: 1, mods: [] }
];

/**
 * A new order carrying what `needs` asks, with `honour(need)` saying which needs this POS can
 * build (a naive POS has no modifiers, say). `time` is how this POS writes its time field.
 */
export function newOrder(id, needs, { honour = () => true, time }) {
	const has = (need) => needs.includes(need) && honour(need);
	let items = structuredClone(ITEMS);
	if (!honour('modifiers')) items = items.map((item) => ({ ...item, mods: [] }));
	if (has('itemGroups'))
		items = items.map((item) => ({ ...item, itemGroup: { id: 'g1', name: 'Burger meal' } }));
	if (has('holdCourse')) {
		items[0] = { ...items[0], course: 'Mains', courseStatus: 'hold' };
		items[1] = { ...items[1], course: 'Starters', courseStatus: 'straightFire' };
	}
	if (has('specialInstructions'))
		items[0] = { ...items[0], specialInstructions: 'Allergy: sesame' };
	const order = {
		id,
		name: 'Zoë Ødegård',
		phoneNumber: '+14155550123',
		time: time(new Date()),
		mode: 'ToGo',
		items
	};
	if (has('priority')) order.priority = true;
	if (has('specialInstructions')) order.specialInstructions = 'Ring the bell twice';
	if (has('scheduled')) {
		order.pickupTime = new Date(Date.now() + 3 * 3_600_000).toISOString();
		order.prepTimeDuration = 'PT30M';
	}
	return order;
}

/** A full update of `order`: an item added, a held course fired when the step asks. */
export function fullUpdate(order, needs) {
	const items = order.items.map((item) =>
		needs.includes('fireCourse') && item.courseStatus === 'hold'
			? { ...item, courseStatus: 'fire' }
			: item
	);
	if (!needs.includes('fireCourse'))
		items.push({ lineId: '4', name: 'Vanilla shake', qty: 1, mods: [] });
	return { ...order, items };
}

/** A partial update: adds, changes and removes, as far as `honour` lets this POS. */
export function partialUpdate(order, { honour = () => true } = {}) {
	const partial = {
		id: order.id,
		itemsToAdd: [{ lineId: '5', name: 'Iced tea', qty: 1, mods: [] }]
	};
	if (honour('changes')) partial.itemsToUpdate = [{ ...order.items[0], qty: 2 }];
	if (honour('removes')) partial.itemsToRemove = ['3'];
	return partial;
}

export const TCP_COMMAND = {
	create: 'create-order',
	update: 'update-order',
	partial: 'partial-update-order',
	cancel: 'cancel-order'
};

export const HTTP_ROUTE = {
	create: ['POST', '/integrators/kds-orders'],
	update: ['PUT', '/integrators/kds-orders'],
	partial: ['PUT', '/integrators/kds-orders/partial'],
	cancel: ['PUT', '/integrators/kds-orders/cancel'],
	'customer-arrived': ['POST', '/integrators/kds-notifications/customer-arrived'],
	eta: ['POST', '/integrators/kds-notifications/estimated-arrival-update'],
	message: ['POST', '/integrators/kds-notifications/send-message']
};

/** The body of each action of a step, in order, for the order the step creates. */
export function stepMessages(step, id, options) {
	const needs = step.step.needs;
	const order = newOrder(id, needs, options);
	return step.step.actions.map((action) => {
		switch (action) {
			case 'create':
				return { action, body: order };
			case 'update':
				return { action, body: fullUpdate(order, needs) };
			case 'partial':
				return { action, body: partialUpdate(order, options) };
			case 'cancel':
				return { action, body: { id } };
			case 'customer-arrived':
				return { action, body: { id } };
			case 'eta':
				return { action, body: { id, minutes: 7 } };
			default:
				return { action, body: { message: 'The fryer is down: no fries for 20 min 🍟' } };
		}
	});
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
