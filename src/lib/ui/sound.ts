/**
 * The new-order chime: a short WebAudio beep, no asset. Browsers only allow audio after a user
 * gesture, so the context is created when the cook turns sound on.
 */
let context: AudioContext | null = null;

/** Create (or resume) the audio context; call from the click that turns sound on. */
export function unlockAudio(): void {
	if (typeof AudioContext === 'undefined') return;
	context ??= new AudioContext();
	if (context.state === 'suspended') void context.resume();
}

/** Two short tones, loud enough over a kitchen fan. */
export function beep(): void {
	if (!context) return;
	const start = context.currentTime;
	for (const [offset, frequency] of [
		[0, 880],
		[0.18, 1320]
	] as const) {
		const osc = context.createOscillator();
		const gain = context.createGain();
		osc.type = 'square';
		osc.frequency.value = frequency;
		gain.gain.setValueAtTime(0.0001, start + offset);
		gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.01);
		gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.15);
		osc.connect(gain).connect(context.destination);
		osc.start(start + offset);
		osc.stop(start + offset + 0.16);
	}
}

/** A cancel: two falling tones, unlike the new-order chime's rising ones. */
export function cancelTone(): void {
	if (!context) return;
	const start = context.currentTime;
	for (const [offset, frequency] of [
		[0, 660],
		[0.22, 440]
	] as const) {
		const osc = context.createOscillator();
		const gain = context.createGain();
		osc.type = 'sawtooth';
		osc.frequency.value = frequency;
		gain.gain.setValueAtTime(0.0001, start + offset);
		gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.01);
		gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.2);
		osc.connect(gain).connect(context.destination);
		osc.start(start + offset);
		osc.stop(start + offset + 0.21);
	}
}
