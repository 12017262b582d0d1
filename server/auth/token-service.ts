import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';

export interface TokenClaims {
  userId: number;
  /** The user's token_version when signed; a bump (password/role change, deactivation) revokes all their tokens. */
  version: number;
  jti: string;
  exp: number;
}

export type TokenFailure = 'missing' | 'malformed' | 'expired' | 'invalid';

export class TokenError extends Error {
  constructor(readonly reason: TokenFailure) {
    super(reason);
  }
}

const VERIFIED_CACHE_SIZE = 5000;

export class TokenService {
  /** Imported once: handing jose raw bytes makes it import the key on every call. */
  private readonly key: KeyObject;
  /** Verified claims by token text; a token's claims never change, and expiry is re-checked on every hit. */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(secret: Uint8Array, readonly ttlSeconds: number) {
    this.key = createSecretKey(secret);
  }

  async sign(userId: number, version: number): Promise<{ token: string; claims: TokenClaims }> {
    const jti = randomUUID();
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const token = await new SignJWT({ ver: version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, claims: { userId, version, jti, exp } };
  }

  /** The claims of a token verified before and not yet expired, without waiting; null otherwise (then call verify). */
  verifiedBefore(token: string): TokenClaims | null {
    const hit = this.verified.get(token);
    return hit && hit.exp * 1000 > Date.now() ? hit : null;
  }

  /** Accepts HS256 only: "none" and every other algorithm are refused before the signature is looked at. */
  async verify(token: string): Promise<TokenClaims> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.exp * 1000 > Date.now()) return hit;
      this.verified.delete(token);
      throw new TokenError('expired');
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.jti !== 'string' || typeof payload.ver !== 'number' || typeof payload.exp !== 'number') {
        throw new TokenError('invalid');
      }
      return { userId, version: payload.ver, jti: payload.jti, exp: payload.exp };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      if (err instanceof joseErrors.JWSInvalid || err instanceof joseErrors.JWTInvalid) throw new TokenError('malformed');
      throw new TokenError('invalid');
    }
  }
}
