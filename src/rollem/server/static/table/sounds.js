// The table's sounds as samples (issue 26), worked out in the page's script: each
// a sum of short tones (a sine or triangle wave falling away exponentially, as a
// WebAudio gain ramped from its loudness to 0.0001 over the tone's length) and
// bursts of noise through a band-pass filter (WebAudio's "bandpass" biquad, Q 1).
// No OscillatorNode, filter or OfflineAudioContext is made: in Chromium at 4x
// slower the first of them cost 100 to 300 ms of the main thread (their wave
// tables and the audio graph set up), a long frame of the sound code's own;
// these samples take a few milliseconds.
//
// SOUND_NAMES: the sounds; soundSamples(name, rate): its samples (Float32Array,
// one channel, `rate` samples a second, SOUND_SECONDS[name] long), or part by
// part: soundBuffer, then addSoundPart.  Throws on a name not in SOUND_NAMES or
// a rate that is not a positive number.

// [kind, ...]: ["tone", Hz, length s, start s, wave, loudness] or
// ["noise", length s, band's middle Hz, loudness]
const RECIPES = {
  deal: [["noise", 0.08, 3000, 0.25]],
  check: [["tone", 180, 0.08, 0, "triangle", 0.15], ["tone", 180, 0.08, 0.11, "triangle", 0.12]],
  bet: [["tone", 2300, 0.05, 0, "sine", 0.05], ["tone", 2900, 0.06, 0.05, "sine", 0.05]],
  fold: [["noise", 0.18, 900, 0.2]],
  turn: [["tone", 880, 0.15, 0, "sine", 0.08]],
  win: [523, 659, 784, 1047].map((f, i) => ["tone", f, 0.18, i * 0.09, "triangle", 0.07]),
};
// Each sound's length (s), its tail included.
export const SOUND_SECONDS = { deal: 0.1, check: 0.22, bet: 0.14, fold: 0.2, turn: 0.18, win: 0.5 };
export const SOUND_NAMES = Object.keys(RECIPES);

export function soundSamples(name, rate) {
  const out = soundBuffer(name, rate);
  for (let k = 0; addSoundPart(out, name, k, rate); k++) { /* each part in turn */ }
  return out;
}
// The silent samples `name` is made into at `rate` (its parts added by addSoundPart).
export function soundBuffer(name, rate) {
  if (!RECIPES[name]) throw new Error("no sound named " + JSON.stringify(name) + "; sounds: " + SOUND_NAMES.join(", "));
  if (!(rate > 0)) throw new Error("sample rate must be a positive number of samples a second, not " + rate);
  return new Float32Array(Math.ceil(rate * SOUND_SECONDS[name]));
}
// Add the `k`th part (a tone, a noise) of sound `name` into `out` (soundBuffer's);
// false when it has no `k`th part.  A part at a time: the page makes its sounds
// one part per idle moment (motion.js), none of them a long task.
export function addSoundPart(out, name, k, rate) {
  const part = (RECIPES[name] || [])[k];
  if (!part) return false;
  const [kind, ...args] = part;
  if (kind === "tone") tone(out, rate, ...args);
  else noise(out, rate, ...args);
  return true;
}
// A tone of `freq` Hz from `at` s, `len` s long (and 20 ms at the ramp's end, as
// an oscillator stopped then), its loudness falling from `gain` to 0.0001.
function tone(out, rate, freq, len, at, wave, gain) {
  const first = Math.round(at * rate);
  const n = Math.min(out.length - first, Math.round((len + 0.02) * rate));
  const ramp = Math.min(n, Math.round(len * rate));
  const fall = Math.pow(0.0001 / gain, 1 / (len * rate));   // the loudness's fall a sample
  const step = freq / rate;                                  // the wave's turn a sample
  let loud = gain, phase = 0;
  for (let i = 0; i < n; i++) {
    const w = wave === "triangle" ? 1 - 4 * Math.abs(phase - 0.5) : Math.sin(2 * Math.PI * phase);
    out[first + i] += (i < ramp ? loud : 0.0001) * w;
    loud *= fall;
    phase += step;
    if (phase >= 1) phase -= 1;
  }
}
// White noise fading out over `len` s, through a band-pass filter around `freq`
// Hz (the biquad WebAudio's "bandpass" is, Q 1), at loudness `gain`.
function noise(out, rate, len, freq, gain) {
  const n = Math.min(out.length, Math.floor(rate * len));
  const w0 = (2 * Math.PI * freq) / rate, alpha = Math.sin(w0) / 2;
  const a0 = 1 + alpha, b0 = alpha / a0, b2 = -alpha / a0;
  const a1 = (-2 * Math.cos(w0)) / a0, a2 = (1 - alpha) / a0;
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < out.length; i++) {
    const x = i < n ? (Math.random() * 2 - 1) * (1 - i / n) : 0;
    const y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1; x1 = x; y2 = y1; y1 = y;
    out[i] += gain * y;
  }
}
