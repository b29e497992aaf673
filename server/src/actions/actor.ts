/**
 * Who asks for an action. A person acts through the editor (the panel, the hover, CodeLens) and
 * the CLI; an agent acts through MCP. Some rules depend on it: only a person accepts a rule
 * candidate (memory/ruleCandidate.ts) by pinning it.
 */
export type Actor = 'person' | 'agent';
