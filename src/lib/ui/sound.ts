/**
 * The new-order chime: a short WebAudio beep, no asset. Sound is on unless the cook turned it off
 * (docs/screens.md). Browsers' autoplay rule: an AudioContext made before the page had a user
 * gesture starts suspended, and may be resumed only by a gesture (a tap or a key) — unless the
 * browser is told otherwise (a kiosk's `--autoplay-policy=no-user-gesture-required`, or Chrome's
 * media engagement for a site often used). So the screen makes the context at once (it plays
 * straight away where allowed) and resumes it on the first touch or key where not; until then
 * `audioSuspended()` says the chime cannot sound, and the screen shows it.
 */
let context: AudioContext | null = null;

/** Create (or resume) the audio context: at load, and again from any tap or key (a gesture). */
export function unlockAudio(): void {
	if (typeof AudioContext === 'undefined') return;
	context ??= new AudioContext();
	if (context.state === 'suspended') void context.resume();
}

/** Sound is wanted but the browser holds it until a gesture (the autoplay rule, above). */
export function audioSuspended(): boolean {
	return context !== null && context.state !== 'running';
}

/** Two short tones, loud enough over a kitchen fan. */
export function beep(): void {
	tones('square', [880, 1320], 0.18, 0.15);
}

/** A cancel: two falling tones, unlike the new-order chime's rising ones. */
export function cancelTone(): void {
	tones('sawtooth', [660, 440], 0.22, 0.2);
}

/** Tones one after another, `gap` s apart, each rising fast and fading over `length` s. */
function tones(type: OscillatorType, frequencies: number[], gap: number, length: number): void {
	const ctx = context;
	if (!ctx) return;
	const start = ctx.currentTime;
	frequencies.forEach((frequency, i) => {
		const at = start + i * gap;
		const osc = ctx.createOscillator();
		const gain = ctx.createGain();
		osc.type = type;
		osc.frequency.value = frequency;
		gain.gain.setValueAtTime(0.0001, at);
		gain.gain.exponentialRampToValueAtTime(0.25, at + 0.01);
		gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
		osc.connect(gain).connect(ctx.destination);
		osc.start(at);
		osc.stop(at + length + 0.01);
	});
}
