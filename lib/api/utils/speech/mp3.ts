import { Mp3Encoder } from "@breezystack/lamejs";

/** 16-bit PCM WAV (as espeak-ng writes it) to MP3 at the given bit rate. */
export function wavToMp3(wav: Uint8Array, kbps = 64): Buffer {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  if (String.fromCharCode(...wav.subarray(0, 4)) !== "RIFF") throw new Error("not a WAV file");
  const channels = view.getUint16(22, true);
  const sampleRate = view.getUint32(24, true);
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = String.fromCharCode(...wav.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === "data") {
      // A streamed WAV may carry a placeholder size; trust what is actually there.
      const bytes = Math.min(size, wav.length - offset - 8);
      const samples = new Int16Array(wav.slice(offset + 8, offset + 8 + bytes - (bytes % 2)).buffer);
      const encoder = new Mp3Encoder(1, sampleRate, kbps);
      const mono = channels === 1 ? samples : samples.filter((_, i) => i % channels === 0);
      const out = [encoder.encodeBuffer(mono), encoder.flush()];
      return Buffer.concat(out.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV file has no data chunk");
}

/** Duration in seconds from MPEG-1/2 Layer III frame headers: proof that the bytes are real MP3. */
export function mp3Duration(mp3: Uint8Array): { frames: number; seconds: number } {
  const BITRATES: Record<number, number[]> = {
    3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  };
  const RATES: Record<number, number[]> = {
    3: [44100, 48000, 32000],
    2: [22050, 24000, 16000],
    0: [11025, 12000, 8000],
  };
  let i = 0;
  let frames = 0;
  let seconds = 0;
  while (i + 4 <= mp3.length) {
    if (mp3[i] !== 0xff || (mp3[i + 1]! & 0xe0) !== 0xe0) {
      i += 1;
      continue;
    }
    const version = (mp3[i + 1]! >> 3) & 3;
    const layer = (mp3[i + 1]! >> 1) & 3;
    const bitrateIndex = mp3[i + 2]! >> 4;
    const rateIndex = (mp3[i + 2]! >> 2) & 3;
    const padding = (mp3[i + 2]! >> 1) & 1;
    const table = BITRATES[version === 3 ? 3 : 2];
    const rate = RATES[version]?.[rateIndex];
    const kbps = table?.[bitrateIndex];
    if (layer !== 1 || !rate || !kbps) {
      i += 1;
      continue;
    }
    const samplesPerFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((samplesPerFrame / 8) * kbps * 1000) / rate) + padding;
    frames += 1;
    seconds += samplesPerFrame / rate;
    i += length;
  }
  return { frames, seconds };
}
