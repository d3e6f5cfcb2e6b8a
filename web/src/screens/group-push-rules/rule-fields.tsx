import type { ReactNode } from 'react';
import { NumberInput, Switch, TextInput } from '@mantine/core';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import type { PushRuleFlagField, PushRulePatternField } from '../../../../shared/src/group-push-rules.ts';
import { re2Explanation } from '../../../../shared/src/re2.ts';
import { sentence } from '../../format.ts';
import { FIELD_LABELS, type PushRuleValues } from './push-rule-model.ts';

/** Inputs of the push-rule form, bound by name; each shows its own validation message. */

export function PatternField({ name, description, placeholder }: { name: PushRulePatternField; description: ReactNode; placeholder: string }) {
  const { register, formState, control } = useFormContext<PushRuleValues>();
  const value = useWatch({ control, name });
  const error = formState.errors[name]?.message;
  return (
    <TextInput
      label={FIELD_LABELS[name]}
      description={description}
      placeholder={placeholder}
      // The client's check and the server's 400 word a refused pattern alike; the console explains it with the position.
      error={error && (re2Explanation(value) ?? sentence(error))}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      autoComplete="off"
      spellCheck={false}
      {...register(name)}
    />
  );
}

export function FlagField({ name, description }: { name: PushRuleFlagField; description: ReactNode }) {
  const { control } = useFormContext<PushRuleValues>();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ name, control });
  return (
    <Switch
      label={FIELD_LABELS[name]}
      description={description}
      error={sentence(fieldState.error?.message)}
      name={field.name}
      ref={inputRef}
      checked={Boolean(field.value)}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
    />
  );
}

export function FileSizeField() {
  const { control } = useFormContext<PushRuleValues>();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ name: 'max_file_size', control });
  const value = field.value;
  return (
    <NumberInput
      label={FIELD_LABELS.max_file_size}
      description="Pushes that add a file larger than this are rejected. 0 means no limit."
      error={value === '' && fieldState.error ? "Can't be blank" : sentence(fieldState.error?.message)}
      name={field.name}
      ref={inputRef}
      value={value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      thousandSeparator=","
      suffix=" MB"
      hideControls
      styles={{ input: { maxWidth: 240 } }}
    />
  );
}
