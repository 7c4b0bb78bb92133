// SPDX-License-Identifier: GPL-2.0
#include <iostream>
#include "fabsim.h"
namespace fabsim
{
uint32_t MrtHeaderBytes();
void SetupMrt(const Scenario& c, const Endpoint& ep);
void StartMrtFlows(const Scenario& c, const Endpoint& ep);
uint32_t MrtHeaderBytes() { return 0; }
void SetupMrt(const Scenario&, const Endpoint&) { std::cerr << "fabsim: mrt endpoints are not built yet" << std::endl; exit(2); }
void StartMrtFlows(const Scenario&, const Endpoint&) {}
}
