/** A cursor over the lexer's tokens, with the error helper the parser pieces share. */
import { ConfigError } from '../../shared/errors';
import type { Token, TokenKind } from './go-lexer';

export class TokenStream {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    readonly file: string,
  ) {}

  peek(): Token {
    return this.tokens[this.index];
  }

  next(): Token {
    const token = this.tokens[this.index];
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  /** The next token that is not a space, without consuming it. */
  peekNonSpace(): Token {
    let i = this.index;
    while (this.tokens[i].kind === 'space') i++;
    return this.tokens[i];
  }

  nextNonSpace(): Token {
    while (this.peek().kind === 'space') this.next();
    return this.next();
  }

  get position(): number {
    return this.index;
  }

  rewind(position: number): void {
    this.index = position;
  }

  expect(kind: TokenKind, context: string): Token {
    const token = this.nextNonSpace();
    if (token.kind !== kind) this.unexpected(token, context);
    return token;
  }

  unexpected(token: Token, context: string): never {
    const what = token.kind === 'eof' ? 'end of file' : token.kind === 'close' ? '"}}"' : JSON.stringify(token.value);
    this.fail(`unexpected ${what} in ${context}`, token.line);
  }

  fail(message: string, line: number): never {
    throw new ConfigError(`Go template syntax: ${message}`, { location: { file: this.file, line } });
  }
}
