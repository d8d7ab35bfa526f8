/**
 * The learner's words for a request to a teacher who answers each booking (decision 117). Here,
 * not in the contract's lessonMessages: they load with My lessons and the confirmation only.
 */
export const requestTexts = {
  /** the confirmation's title (the modal's is written where it is, outside this chunk) */
  requestSent: 'Your request is sent',
  waitingForTeacher: 'Waiting for the teacher',
  /** a visitor's request after its e-mail link: now the teacher answers */
  requestConfirmed: 'Your request is sent to the teacher',
  requestWithdrawn: 'Your request was withdrawn',
  requestExpired: 'The teacher did not answer in time, so nothing is booked and the time is free again. Please choose another time or teacher.',
  requestDeclined: 'The teacher cannot take this lesson, so nothing is booked. Please choose another time or teacher.',
} as const;
