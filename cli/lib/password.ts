/**
 * Where `iws upload` gets the password: never the command line (visible to every user through `ps` and kept in shell
 * history), but the IWS_PASSWORD environment variable or a prompt on the terminal that does not echo what is typed.
 */

export const PASSWORD_VARIABLE = 'IWS_PASSWORD';

/** The terminal side of stdin that a hidden prompt needs (process.stdin when it is a TTY). */
export type TerminalInput = {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
};

export class PromptCancelledError extends Error {
  constructor() {
    super('cancelled at the password prompt');
  }
}

/**
 * Asks `question` and reads one line in raw mode, so the terminal shows nothing of it; Backspace edits, Enter ends,
 * Ctrl-C or Ctrl-D cancels.
 */
export function readHiddenLine(
  question: string,
  input: TerminalInput,
  output: { write(text: string): unknown },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const wasRaw = input.isRaw ?? false;
    let line: string[] = [];
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(line.join(''));
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of chunk.toString()) {
        if (character === '\r' || character === '\n') return finish();
        if (character === '\u0003' || character === '\u0004') return finish(new PromptCancelledError());
        if (character === '\u007f' || character === '\b') line = line.slice(0, -1);
        else if (character >= ' ') line.push(character);
      }
    };
    output.write(question);
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}

/** IWS_PASSWORD when set, else a hidden prompt when stdin is a terminal; undefined when there is neither. */
export async function readPassword(
  email: string,
  io: { env: NodeJS.ProcessEnv; stdin: Partial<TerminalInput>; stderr: { write(text: string): unknown } },
): Promise<string | undefined> {
  const fromEnvironment = io.env[PASSWORD_VARIABLE];
  if (fromEnvironment) return fromEnvironment;
  if (!io.stdin.isTTY || !io.stdin.setRawMode) return undefined;
  return readHiddenLine(`Password for ${email}: `, io.stdin as TerminalInput, io.stderr);
}
