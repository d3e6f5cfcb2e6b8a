import { Button, Group, Modal, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { password, userCreateBody } from '../../../../shared/src/users.ts';
import { isApiError } from '../../api/client.ts';
import { useCreateUser } from '../../api/users.ts';
import { sentence } from '../../format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { formShowsFieldErrors, showServerFieldErrors } from '../../components/server-errors.ts';
import { adminHref } from '../../paths.ts';

/**
 * The form's own shape: the shared POST /users body's fields, and how the first password is
 * chosen. Gatehouse sends no email, so "send a reset link" is not offered: a random password
 * that nobody knows keeps the account closed until an administrator sets one.
 */
const formSchema = userCreateBody
  .pick({ name: true, username: true, email: true })
  .extend({ passwordMode: z.enum(['set', 'random']), password: z.string() })
  .superRefine((v, ctx) => {
    if (v.passwordMode !== 'set') return;
    const checked = password.safeParse(v.password);
    if (!checked.success) ctx.addIssue({ code: 'custom', path: ['password'], message: v.password ? 'Must be 8 to 128 characters' : 'Enter a password, or choose a random one' });
  });
type Values = z.input<typeof formSchema>;
type Parsed = z.output<typeof formSchema>;

const FIELDS = ['name', 'username', 'email', 'password'] as const;
const defaults: Values = { name: '', username: '', email: '', passwordMode: 'set', password: '' };

/** Creates an account (POST /users); a 400 lands under its fields, a taken email or username under that field. */
export function CreateUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const navigate = useNavigate();
  const create = useCreateUser({
    meta: { errorTitle: 'The user was not created', showsError: (e) => formShowsFieldErrors(e) || e.status === 409 },
  });
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(formSchema), defaultValues: defaults, mode: 'onSubmit', reValidateMode: 'onChange' });
  const mode = useWatch({ control: form.control, name: 'passwordMode' });

  const close = () => {
    if (create.isPending) return;
    form.reset(defaults);
    create.reset();
    onClose();
  };

  const onValid = async ({ passwordMode, password: chosen, ...fields }: Parsed) => {
    try {
      const user = await create.mutateAsync({ ...fields, ...(passwordMode === 'set' ? { password: chosen } : { force_random_password: true }) });
      form.reset(defaults);
      onClose();
      notifySuccess('User created', `@${user.username} can ${passwordMode === 'set' ? 'sign in with the password you chose' : 'sign in once you set a password'}.`);
      navigate(adminHref('users', user.id));
    } catch (e) {
      // A taken email or username is a 409 with a sentence: it belongs under its field.
      if (isApiError(e) && e.status === 409) {
        const field = /^email/i.test(e.message) ? 'email' : /^username/i.test(e.message) ? 'username' : null;
        if (field) form.setError(field, { type: 'server', message: e.message }, { shouldFocus: true });
        return;
      }
      showServerFieldErrors(form.setError, e, { fieldOf: (path) => FIELDS.find((f) => f === path.split('.')[0]) ?? null, title: 'The user was not created' });
    }
  };

  const error = (name: keyof Values) => sentence(form.formState.errors[name]?.message);

  return (
    <Modal opened={opened} onClose={close} title="New user" size="lg" fullScreen={narrow} closeOnClickOutside={!form.formState.isDirty}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="New user">
        <Stack gap="md">
          <TextInput label="Name" withAsterisk autoComplete="off" data-autofocus error={error('name')} {...form.register('name')} />
          <TextInput
            label="Username"
            description="Letters, digits, “_”, “-” and “.”; it is part of the user’s paths and cannot clash with another user’s."
            withAsterisk
            autoComplete="off"
            spellCheck={false}
            error={error('username')}
            {...form.register('username')}
          />
          <TextInput label="Email" type="email" withAsterisk autoComplete="off" error={error('email')} {...form.register('email')} />
          <Controller
            control={form.control}
            name="passwordMode"
            render={({ field }) => (
              <Radio.Group label="Password" value={field.value} onChange={field.onChange} name={field.name}>
                <Stack gap="xs" mt="xs">
                  <Radio value="set" label="Set a password now" description="Tell the user, who signs in with it." />
                  <Radio
                    value="random"
                    label="Random password"
                    description="Nobody knows it, so the account cannot sign in until a password is set. Gatehouse sends no email, so there is no reset link."
                  />
                </Stack>
              </Radio.Group>
            )}
          />
          {mode === 'set' && <PasswordInput label="Initial password" description="At least 8 characters." withAsterisk autoComplete="new-password" error={error('password')} {...form.register('password')} />}
          <Text size="xs" c="dimmed">
            The new user is a regular user; make them an administrator from their page if they need to be.
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
