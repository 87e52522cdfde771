#include "agent.h"

Agent::Agent() : policy(torch::nn::Linear(4, 2)), critic(torch::nn::Linear(4, 1)) {}
