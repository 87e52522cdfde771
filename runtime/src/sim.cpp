// Placeholder: the simulated accelerator is being written (issue 7).
