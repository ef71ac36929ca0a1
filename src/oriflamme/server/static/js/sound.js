// The "your turn" chime, made with WebAudio (no sound file): two soft notes. Browsers start
// audio only after a click on the page, so the settings' click unlocks it first.

const NOTES = [[659.25, 0], [987.77, 0.16]]; // E5 then B5, seconds after the start
const NOTE_S = 0.35;
const VOLUME = 0.18;

let context = null;

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  return context;
}

/** Make sound possible from now on (call it from a click); false where there is no WebAudio. */
export function unlockSound() {
  const ctx = audio();
  if (!ctx) return false;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return true;
}

/** Play the chime (quietly nothing where the browser forbids it). */
export function playChime() {
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const start = ctx.currentTime + 0.02;
  for (const [frequency, offset] of NOTES) {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0, start + offset);
    gain.gain.linearRampToValueAtTime(VOLUME, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.001, start + offset + NOTE_S);
    tone.connect(gain).connect(ctx.destination);
    tone.start(start + offset);
    tone.stop(start + offset + NOTE_S + 0.05);
  }
  window.chimes = (window.chimes || 0) + 1; // counted for the browser tests
}
