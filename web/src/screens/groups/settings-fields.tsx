import type { ReactNode } from 'react';
import { NativeSelect, NumberInput, Switch, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { useController, useFormContext, type FieldPath } from 'react-hook-form';
import { sentence } from '../../format.ts';
import { firstMessage, type SettingsValues } from './settings-model.ts';
import { FormSection } from '../../components/FormSection.tsx';

/** Inputs bound to the settings form by name; each shows its own validation message. */

type Name = FieldPath<SettingsValues>;

function useField(name: Name) {
  const { control } = useFormContext<SettingsValues>();
  // The ref is kept apart from the value props: React's rules treat an object that carries a ref as a ref.
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ name, control });
  return { field, inputRef, error: sentence(firstMessage(fieldState.error)) };
}

export function TextField({ name, label, description, placeholder, monospace }: { name: Name; label: string; description?: ReactNode; placeholder?: string; monospace?: boolean }) {
  const { field, inputRef, error } = useField(name);
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      name={field.name}
      ref={inputRef}
      value={(field.value as string | undefined) ?? ''}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      onBlur={field.onBlur}
      styles={monospace ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

export function TextAreaField({ name, label, description, maxLength }: { name: Name; label: string; description?: ReactNode; maxLength: number }) {
  const { field, inputRef, error } = useField(name);
  const value = (field.value as string | undefined) ?? '';
  return (
    <Textarea
      label={label}
      description={description}
      error={error}
      name={field.name}
      ref={inputRef}
      value={value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      onBlur={field.onBlur}
      autosize
      minRows={3}
      maxRows={8}
      inputWrapperOrder={['label', 'description', 'input', 'error']}
      rightSection={
        <Text size="xs" c={value.length > maxLength ? 'red' : 'dimmed'} style={{ alignSelf: 'flex-end' }} pb={6} pr={24} aria-hidden>
          {value.length}/{maxLength}
        </Text>
      }
      rightSectionWidth={80}
    />
  );
}

export function SwitchField({ name, label, description }: { name: Name; label: string; description?: ReactNode }) {
  const { field, inputRef, error } = useField(name);
  return (
    <Switch
      label={label}
      description={description}
      error={error}
      name={field.name}
      ref={inputRef}
      checked={Boolean(field.value)}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
    />
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({ name, label, description, data }: { name: Name; label: string; description?: ReactNode; data: Option[] }) {
  const { field, inputRef, error } = useField(name);
  const value = String(field.value ?? '');
  // A stored value the console does not offer (a legacy alias) stays visible rather than silently changing.
  const options = data.some((o) => o.value === value) || !value ? data : [...data, { value, label: value }];
  return (
    <NativeSelect
      label={label}
      description={description}
      error={error}
      name={field.name}
      ref={inputRef}
      value={value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      onBlur={field.onBlur}
      data={options}
    />
  );
}

/**
 * A whole number. Empty stays empty (validation then says so) unless `nullable`, where empty
 * means "not set". No clamping: an out-of-range value is shown with its error, not quietly changed.
 */
export function NumberField({
  name,
  label,
  description,
  nullable,
  suffix,
  placeholder,
}: {
  name: Name;
  label: string;
  description?: ReactNode;
  nullable?: boolean;
  suffix?: string;
  placeholder?: string;
}) {
  const { field, inputRef, error } = useField(name);
  const value = field.value as number | string | null | undefined;
  return (
    <NumberInput
      label={label}
      description={description}
      placeholder={placeholder}
      error={value === '' && error ? "Can't be blank" : error}
      name={field.name}
      ref={inputRef}
      value={value ?? ''}
      onChange={(v) => field.onChange(v === '' && nullable ? null : v)}
      onBlur={field.onBlur}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      thousandSeparator=","
      suffix={suffix}
      maw={320}
    />
  );
}

export function TagsField({ name, label, description, placeholder }: { name: Name; label: string; description?: ReactNode; placeholder?: string }) {
  const { field, inputRef, error } = useField(name);
  return (
    <TagsInput
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      name={field.name}
      ref={inputRef}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      onBlur={field.onBlur}
      splitChars={[',', ' ']}
      clearable
    />
  );
}

/** A section of the settings page: heading beside its fields on wide screens. */
export const SettingsSection = (props: { id: string; title: string; description: string; children: ReactNode }) => <FormSection {...props} layout="aside" order={2} />;
