import { createHash, randomBytes } from 'node:crypto';

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `<project>:<environment>.<secret>`, as Unleash formats tokens; `*` stands for "all". */
export function newTokenString(projectPart: string, environmentPart: string): string {
  return `${projectPart}:${environmentPart}.${randomBytes(32).toString('hex')}`;
}
