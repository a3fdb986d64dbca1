/** `/vigil` itself, and how help and usage errors write an example command. */
export const COMMAND = '/vigil';

export interface HelpExample {
  command: string;
  description: string;
}

export const ex = (args: string, description: string): HelpExample => ({
  command: `${COMMAND} ${args}`,
  description,
});
