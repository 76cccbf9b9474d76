/**
 * The wall time in a zone at an instant, as `YYYY-MM-DDTHH:MM:SS`: what a POS's naive local
 * date-time prints (Python `datetime.now().isoformat()` without microseconds, Java
 * `LocalDateTime`). Written with Intl on its own, apart from the simulator's time code, so a test
 * that reads the simulator's answer against it is not checking the code with itself.
 */
export function wallTime(ms: number, timeZone: string): string {
	return new Intl.DateTimeFormat('sv-SE', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hourCycle: 'h23'
	})
		.format(ms)
		.replace(' ', 'T');
}
