/**
 * Pop-up messages (contract 6): a pop-up covers the screen on every browser showing it until
 * someone presses OK. Stored until acknowledged, so a screen that opens later shows it too; a
 * screen keeps its MAX_POPUPS newest. No retry and no expiry.
 */
import { transaction, type Database } from '../store/sqlite.ts';
import type { Popup } from '#core/relay';
import type { NotificationStatements } from '../store/notification-store.ts';

/** Open pop-ups kept per screen; beyond this the oldest goes. */
export const MAX_POPUPS = 50;

export class Popups {
	constructor(
		private readonly db: Database,
		private readonly sql: NotificationStatements
	) {}

	/** One pop-up on each named screen, sent `at`; its id. */
	add(screenIds: readonly string[], message: string, at: number): string {
		const id = crypto.randomUUID();
		transaction(this.db, () => {
			for (const screenId of screenIds) {
				this.sql.putPopup.run(screenId, id, message, at);
				this.sql.trimPopups.run(screenId, screenId, MAX_POPUPS);
			}
		})();
		return id;
	}

	/** OK was pressed: false when the screen has no such pop-up open. */
	acknowledge(screenId: string, popupId: string): boolean {
		return this.sql.ackPopup.run(screenId, popupId).changes > 0;
	}

	/** The screen's open pop-ups, oldest first. */
	of(screenId: string): Popup[] {
		return this.sql.popupsOf.all(screenId) as unknown as Popup[];
	}

	/** Forget the pop-ups of one screen, or of every screen. */
	forget(screenId?: string): void {
		if (screenId === undefined) this.sql.dropAllPopups.run();
		else this.sql.dropScreenPopups.run(screenId);
	}
}
