import { z } from 'zod';

/**
 * One wording for validation messages on both sides: the console shows them under form
 * fields, and the API returns them in `{"message": {"field": ["..."]}}`.
 */
export const platformErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is missing' : 'is invalid';
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `is too long (maximum is ${max} characters)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `is too long (maximum is ${max} entries)`;
      return `must be less than or equal to ${max}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? "can't be blank" : `is too short (minimum is ${min} characters)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `is too short (minimum is ${min} entries)`;
      return `must be greater than or equal to ${min}`;
    }
    case 'invalid_value':
      return 'does not have a valid value';
    case 'invalid_format':
      return issue.format === 'regex' ? 'is invalid' : `must be a valid ${issue.format}`;
    case 'invalid_union':
      // Parameters accept several spellings (unions); an absent one is missing, not invalid.
      return issue.input === undefined ? 'is missing' : 'is invalid';
    default:
      return undefined;
  }
};

z.config({ customError: platformErrorMap });

export { z };
