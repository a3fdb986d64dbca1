/**
 * What the Slack client sends as a slash command's text: `&`, `<` and `>` escaped, and a `#channel` the
 * person typed or picked from the completion turned into a channel mention, `<#C…|name>` (the app asks for
 * escaped text in its manifest, so Vigil receives channels with their ids).
 */

export interface KnownChannel {
  id: string;
  name: string;
}

const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackCommandText(typed: string, channels: readonly KnownChannel[]): string {
  const byName = new Map(channels.map((c) => [c.name.toLowerCase(), c]));
  return escapeSlack(typed).replace(
    /(^|[\s(])#([\p{Ll}\p{Lu}\p{Lo}\p{N}_-]{1,80})(?=$|[\s),.;:!?])/gu,
    (whole, before: string, name: string) => {
      const channel = byName.get(name.toLowerCase());
      return channel ? `${before}<#${channel.id}|${channel.name}>` : whole;
    },
  );
}
