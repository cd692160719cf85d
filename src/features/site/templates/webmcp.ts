import type { ApiAction } from '../../../kernel/schemas/lead-kinds.ts';
import { attributes } from './html.ts';

/*
 * WebMCP, declarative form tools (Chrome's draft, docs/agents.md): an in-browser agent sees each
 * site form as a tool named like its MCP twin on /mcp, and each control says what it expects. No
 * `toolautosubmit`: the agent fills the form, the person reads it and presses the button.
 */

/** The form's own tool attributes. */
export function webMcpForm(endpoint: ApiAction): Record<string, string> {
  return {
    toolname: endpoint.tool.name,
    tooldescription: `${endpoint.summary}. La personne relit le formulaire et l’envoie elle-même. The person reviews the form and sends it.`,
  };
}

const UNESCAPED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => UNESCAPED[name] ?? '');

interface ObjectSchema {
  properties: Record<string, { description?: string }>;
}

/** What a control named `name` expects: its schema description, or the audit question it answers. */
export function paramDescription(endpoint: ApiAction, name: string): string | undefined {
  const question = /^formData\[(.+)\]$/.exec(name)?.[1];
  if (question !== undefined) return `Réponse de la personne à la question « ${question} ».`;
  return (endpoint.schema as unknown as ObjectSchema).properties[name]?.description;
}

/**
 * Adds `toolparamdescription` to every named control a person fills (hidden inputs are the form's
 * own values), taken from the API schema so the agent reads what the API documents.
 */
export function describeControls(html: string, endpoint: ApiAction): string {
  return html.replace(
    /<(input|textarea|select)\b([^>]*)>/g,
    (tag, element: string, rest: string) => {
      const name = /\sname="([^"]*)"/.exec(rest)?.[1];
      if (name === undefined || /\stype="hidden"/.test(rest)) return tag;
      const description = paramDescription(endpoint, unescapeHtml(name));
      if (description === undefined) throw new Error(`The API schema has no field "${name}"`);
      return `<${element}${rest}${attributes({ toolparamdescription: description })}>`;
    },
  );
}
