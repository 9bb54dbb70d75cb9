// Sound at the table: the call-outs 碰 杠 胡 亮倒 自摸 过 and every discarded tile's name
// (一筒 … 九条, 白板 发财 红中) spoken in 普通话 (small WAV files made with espeak-ng by
// tools/make_audio.py, served from /static/audio/), and a tile click made with Web Audio; mute,
// volume and the tiles' voice (on/off) kept in localStorage (store.js getSound). Playback never
// throws: a browser that blocks sound before the first tap just stays quiet.

import { getSound, setSound } from './store.js';

/** The file of each call-out (an event type, or self_draw for a win by 自摸). */
export const CALLOUT_FILES = {
  pung: 'peng.wav', kong: 'gang.wav', win: 'hu.wav', self_draw: 'zimo.wav', declare: 'liangdao.wav',
  pass: 'guo.wav',
};

/** The address of a tile's spoken name ('5p' -> /static/audio/tile-5p.wav), or null. */
export function tileUrl(code) {
  return /^[1-9][mps]$|^[567]z$/.test(code || '') ? `/static/audio/tile-${code}.wav` : null;
}

/** The address of a call-out's file, or null for a kind without one. */
export function calloutUrl(kind) {
  return CALLOUT_FILES[kind] ? `/static/audio/${CALLOUT_FILES[kind]}` : null;
}

let sound = getSound();
const players = new Map();  // url -> HTMLAudioElement, loaded once
let context = null;

/** The sound settings now: {muted, volume (0-1)}. */
export function soundSettings() { return { ...sound }; }

/** Mute or unmute (kept for the next visit). */
export function setMuted(muted) {
  sound = { ...sound, muted: Boolean(muted) };
  setSound(sound);
}

/** The volume, 0-1 (kept for the next visit); a volume above 0 unmutes. */
export function setVolume(volume) {
  const v = Math.min(1, Math.max(0, Number(volume) || 0));
  sound = { ...sound, muted: v === 0 ? sound.muted : false, volume: v };
  setSound(sound);
}

/** Say (or not) the name of every discarded tile (kept for the next visit). */
export function setTileVoice(on) {
  sound = { ...sound, tiles: Boolean(on) };
  setSound(sound);
}

function audible() { return !sound.muted && sound.volume > 0; }

/** Say a call-out ('pung', 'kong', 'win', 'self_draw', 'declare', 'pass'). */
export function playCallout(kind) {
  play(calloutUrl(kind));
}

/** Say a discarded tile's name ('5p': 五筒), unless the tiles' voice is off. */
export function playTile(code) {
  if (sound.tiles) play(tileUrl(code));
}

function play(url) {
  if (!url || !audible() || typeof Audio === 'undefined') return;
  let a = players.get(url);
  if (!a) {
    a = new Audio(url);
    a.preload = 'auto';
    players.set(url, a);
  }
  a.volume = sound.volume;
  a.currentTime = 0;
  const p = a.play();
  if (p && p.catch) p.catch(() => {});
}

/** A short click of a tile set down on the table (a discard): a filtered noise burst and a low
 * knock, about 60 ms, at the volume set. */
export function playClick() {
  if (!audible()) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (!context) context = new Ctx();
  if (context.state === 'suspended') context.resume().catch(() => {});
  if (context.state !== 'running') return;  // no gesture yet: quiet
  const now = context.currentTime;
  const gain = context.createGain();
  gain.gain.setValueAtTime(0.6 * sound.volume, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.06);
  gain.connect(context.destination);
  const frames = Math.floor(context.sampleRate * 0.06);
  const buffer = context.createBuffer(1, frames, context.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const noise = context.createBufferSource();
  noise.buffer = buffer;
  const band = context.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = 2400;
  band.Q.value = 1.2;
  noise.connect(band).connect(gain);
  const knock = context.createOscillator();
  knock.type = 'triangle';
  knock.frequency.setValueAtTime(420, now);
  knock.frequency.exponentialRampToValueAtTime(180, now + 0.05);
  knock.connect(gain);
  noise.start(now);
  knock.start(now);
  knock.stop(now + 0.06);
}
