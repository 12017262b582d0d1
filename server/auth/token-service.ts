import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The secret comes from JWT_SECRET, or is generated once and kept in the data folder. */
export function loadJwtSecret(env: NodeJS.ProcessEnv, dataDir: string): Uint8Array {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return new TextEncoder().encode(env.JWT_SECRET);
  }
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export class TokenService {
  constructor(private readonly secret: Uint8Array, readonly ttlSeconds: number) {}

  async sign(userId: number, version: number): Promise<{ token: string; claims: TokenClaims }> {
    const jti = randomUUID();
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const token = await new SignJWT({ ver: version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, claims: { userId, version, jti, exp } };
  }

  /** Accepts HS256 only: "none" and every other algorithm are refused before the signature is looked at. */
  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
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
