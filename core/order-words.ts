/**
 * The contract's fixed word lists for an order: its modes and an item's course statuses. A leaf
 * of the core: the schemas (order-schema.ts) and the rule catalogue (rules.ts) both name them,
 * and neither depends on the other for it.
 *
 * Pure: no Node, no DOM.
 */

/** An order's `mode` (contract 2.1). */
export const ORDER_MODES = [
	'For Here',
	'ToGo',
	'Pickup',
	'DriveThru',
	'Delivery',
	'Curbside'
] as const;

/** An item's `courseStatus` (contract 2.1, coursing). */
export const COURSE_STATUSES = ['straightFire', 'hold', 'fire', 'pickup'] as const;
