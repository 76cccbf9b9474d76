/**
 * A page whose data changes in the background (order counts, the SMS outbox, webhook deliveries,
 * the tracker's boards) reloads it every few seconds while it is shown: its load's `depends` key
 * invalidated on a timer, stopped when the page goes. Call it while the component initialises.
 */
import { invalidate } from '$app/navigation';

export function reloadEvery(dependency: `app:${string}`, ms = 2000): void {
	$effect(() => {
		const timer = setInterval(() => invalidate(dependency), ms);
		return () => clearInterval(timer);
	});
}
