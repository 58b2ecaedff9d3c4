import { ConfigError, type ConfigIssue } from "./errors.js";
import { formatPath, isPlainObject, type PathSegment } from "./values.js";

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${NAME}` in every string value of a raw config tree with the environment variable;
 * `$${NAME}` stays a literal `${NAME}`. Every unset or empty variable and every malformed
 * reference becomes one issue of the thrown `ConfigError`, named by its key path.
 */
export function substituteEnv(raw: unknown, env: NodeJS.ProcessEnv, path: readonly PathSegment[] = []): unknown {
  const issues: ConfigIssue[] = [];
  const result = walk(raw, env, [...path], issues);
  if (issues.length > 0) {
    throw new ConfigError(issues, {
      hint: `Set the missing variables (export NAME=value) before starting, or write $\${NAME} for a literal \${NAME}.`,
    });
  }
  return result;
}

function walk(value: unknown, env: NodeJS.ProcessEnv, path: PathSegment[], issues: ConfigIssue[]): unknown {
  if (typeof value === "string") return substituteString(value, env, path, issues);
  if (Array.isArray(value)) return value.map((item, index) => walk(item, env, [...path, index], issues));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item, env, [...path, key], issues);
    return out;
  }
  return value;
}

function substituteString(text: string, env: NodeJS.ProcessEnv, path: PathSegment[], issues: ConfigIssue[]): string {
  if (!text.includes("${")) return text;
  const where = formatPath(path);
  let out = "";
  let index = 0;
  while (index < text.length) {
    if (text.startsWith("$${", index)) {
      out += "${";
      index += 3;
      continue;
    }
    if (!text.startsWith("${", index)) {
      out += text[index];
      index += 1;
      continue;
    }
    const end = text.indexOf("}", index + 2);
    if (end === -1) {
      issues.push({
        path: where,
        message: `unterminated "\${" in ${JSON.stringify(text.slice(index, index + 40))}: close it with "}", or write $\${ for a literal \${`,
      });
      return out + text.slice(index);
    }
    const name = text.slice(index + 2, end);
    out += resolveVariable(name, env, where, issues);
    index = end + 1;
  }
  return out;
}

function resolveVariable(name: string, env: NodeJS.ProcessEnv, where: string, issues: ConfigIssue[]): string {
  if (!VARIABLE_NAME.test(name)) {
    issues.push({
      path: where,
      message: `"\${${name}}" is not a valid environment variable name (letters, digits and _, not starting with a digit); write $\${${name}} for a literal`,
    });
    return "";
  }
  const value = env[name];
  if (value === undefined) {
    issues.push({ path: where, message: `environment variable ${name} is not set`, variable: name });
    return "";
  }
  if (value === "") {
    issues.push({ path: where, message: `environment variable ${name} is set but empty`, variable: name });
    return "";
  }
  return value;
}
