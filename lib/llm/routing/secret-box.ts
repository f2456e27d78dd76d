import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";
const KEY_BYTES = 32;
// GCM's standard nonce: 96 random bits per seal, so a key seals far more values than any owner stores.
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Dots separate the parts of a sealed value, so an id may not hold one.
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The variable the operator sets to turn stored provider keys on: `id:base64key[,id:base64key...]`. */
export const SECRET_KEYS_VARIABLE = "GATEWAY_SECRET_KEYS";

/** A sealed value that will not open: unknown key id, tampered, malformed, or bound to another context. */
export class SealError extends Error {}

/**
 * AES-256-GCM under the operator's keys (GATEWAY_SECRET_KEYS). The first key seals; every listed key
 * opens, so rotating is: put a new key first, keep the old ones listed until every value sealed under
 * them has been sealed again (sealedWith says which key a value needs). `context` is the associated
 * data: a value opens only with the context it was sealed with, so a ciphertext copied into another
 * owner's row does not open there. The keys live in private fields: logging or serialising a box
 * (a config object, say) shows none of them.
 */
export class SecretBox {
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keys: ReadonlyArray<{ id: string; key: Buffer }>) {
    const first = keys[0];
    if (!first) throw new Error("a secret box needs at least one key");
    this.#keys = new Map(keys.map((k) => [k.id, k.key]));
    this.currentKeyId = first.id;
  }

  /** `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts, sealed under the current key. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#keys.get(this.currentKeyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, this.currentKeyId, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  /** The plaintext of a value sealed with this context under any listed key; SealError otherwise. */
  open(sealed: string, context: string): string {
    const { keyId, iv, tag, ciphertext } = parseSealed(sealed);
    const key = this.#keys.get(keyId);
    if (!key) throw new SealError(`sealed under key "${keyId}", which ${SECRET_KEYS_VARIABLE} no longer lists`);
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    } catch {
      throw new SealError("the sealed value does not open: altered, or sealed for another owner or provider");
    }
  }

  /** The id of the key a sealed value was sealed under (to find values to seal again after a rotation). */
  sealedWith(sealed: string): string {
    return parseSealed(sealed).keyId;
  }
}

function parseSealed(sealed: string) {
  const parts = sealed.split(".");
  const [version, keyId, iv, tag, ciphertext] = parts;
  if (parts.length !== 5 || version !== VERSION || !keyId || iv === undefined || !tag || ciphertext === undefined)
    throw new SealError("not a sealed value of this gateway (v1.<key id>.<iv>.<tag>.<ciphertext>)");
  const bytes = (s: string) => Buffer.from(s, "base64url");
  const parsed = { keyId, iv: bytes(iv), tag: bytes(tag), ciphertext: bytes(ciphertext) };
  if (parsed.iv.length !== IV_BYTES || parsed.tag.length !== TAG_BYTES) throw new SealError("malformed sealed value");
  return parsed;
}

/**
 * The box GATEWAY_SECRET_KEYS describes, or undefined when it is unset (stored provider keys are then
 * off). A set value must parse: each entry `id:base64key` with a 32-byte key and an id of letters,
 * digits, `_` or `-`, ids unique. The error names the entry by position, never by its key.
 */
export function secretBoxFromEnv(value: string | undefined): SecretBox | undefined {
  const entries = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const keys = entries.map((entry, i) => {
    const at = entry.indexOf(":");
    const id = at < 0 ? "" : entry.slice(0, at);
    const where = `${SECRET_KEYS_VARIABLE} entry ${i + 1}`;
    if (!KEY_ID.test(id)) throw new Error(`${where}: expected id:base64key, the id 1-32 letters, digits, _ or -`);
    const encoded = entry.slice(at + 1);
    const key = Buffer.from(encoded, "base64");
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length !== KEY_BYTES)
      throw new Error(`${where} ("${id}"): the key must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32)`);
    return { id, key };
  });
  const ids = keys.map((k) => k.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new Error(`${SECRET_KEYS_VARIABLE}: key id "${repeated}" is listed twice`);
  return new SecretBox(keys);
}
